#!/usr/bin/env python3
"""cpu suite: --input and --output with files that are not plain files, and a run stopped
midway, through a real program: the std::sort baseline, which needs no GPU.

Usage: output_files_test.py BASELINES_PROGRAM

  - a regular output is replaced in one step and keeps its permissions; a run stopped by SIGINT
    or SIGTERM leaves the old file as it was and no temporary file behind;
  - a symbolic link is followed and stays a link; a fifo and a character device are written
    through and stay what they are; a write that fails (/dev/full) exits 2 with the reason;
  - a directory and a missing folder are refused with exit code 2 and one line, at once;
  - a valid name as long as the file system allows works;
  - --segment with --input and --output sorts each array of the file on its own;
  - an input that is a fifo, /dev/stdin or a /proc file is read (or refused for what it holds),
    never called empty when it is not; --output naming the --input file through a link is
    refused;
  - with COURSE_REFERENCE_CACHE (tools/record.py sets it), 2^20 keys and the check's std::sort
    reference of them are left in that folder and read back by the next run; a reference there
    that is not the keys' sort is made again, and the run still checks against std::sort.
"""
import os
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time

program = sys.argv[1]
base = [program, "--algo", "std_sort", "--reps", "1"]
failures = []
KEYS = [5, -1, 2147483647, -2147483648, 0, 5, 3]


def pack(keys):
    return struct.pack(f"<{len(keys)}i", *keys)


def unpack(data):
    return list(struct.unpack(f"<{len(data) // 4}i", data))


def run(arguments, **options):
    return subprocess.run(base + arguments, capture_output=True, text=True, timeout=600, **options)


def expect(name, condition, detail=""):
    print(("ok   " if condition else "FAIL ") + name + (f": {detail}" if detail and not condition
                                                       else ""))
    if not condition:
        failures.append(name)


def refused(name, arguments, message):
    result = run(arguments)
    lines = result.stderr.strip().splitlines()
    expect(name, result.returncode == 2 and len(lines) == 1 and message in lines[0],
           f"exit {result.returncode}, stderr {result.stderr!r}")


with tempfile.TemporaryDirectory() as folder:
    source = os.path.join(folder, "keys.bin")
    with open(source, "wb") as file:
        file.write(pack(KEYS))
    output = os.path.join(folder, "out.bin")

    # A regular file: replaced, permissions kept.
    with open(output, "wb") as file:
        file.write(b"old!")
    os.chmod(output, 0o640)
    result = run(["--input", source, "--output", output])
    with open(output, "rb") as file:
        expect("a regular output is replaced by the sorted keys",
               result.returncode == 0 and unpack(file.read()) == sorted(KEYS), result.stderr)
    expect("the output keeps its permissions", stat.S_IMODE(os.stat(output).st_mode) == 0o640)

    # --segment with files: every array of 4 keys sorted on its own, in the order asked for.
    arrays = [7, 3, -2, 9, 2147483647, -2147483648, 0, 1]
    with open(source, "wb") as file:
        file.write(pack(arrays))
    result = run(["--input", source, "--output", output, "--segment", "4", "--order", "desc"])
    with open(output, "rb") as file:
        expect("--segment 4 sorts each array of a file on its own",
               result.returncode == 0 and unpack(file.read()) ==
               sorted(arrays[:4], reverse=True) + sorted(arrays[4:], reverse=True), result.stderr)
    refused("--segment that does not divide the file's keys is refused",
            ["--input", source, "--output", output, "--segment", "16"], "--segment 16")
    with open(source, "wb") as file:
        file.write(pack(KEYS))

    # Stopped midway: the old file stays, no temporary file is left.
    for number, name in ((signal.SIGINT, "SIGINT"), (signal.SIGTERM, "SIGTERM")):
        with open(output, "wb") as file:
            file.write(b"old!")
        process = subprocess.Popen(base[:-1] + ["5", "--log2", "26", "--output", output],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.5)
        process.send_signal(number)
        process.wait(timeout=120)
        left = sorted(os.listdir(folder))
        with open(output, "rb") as file:
            expect(f"{name} midway leaves the old output and no temporary file",
                   process.returncode == -number and file.read() == b"old!" and
                   left == ["keys.bin", "out.bin"], f"exit {process.returncode}, files {left}")

    # A symbolic link, also one whose file does not exist yet.
    link = os.path.join(folder, "link.bin")
    os.symlink("out.bin", link)
    result = run(["--input", source, "--output", link])
    with open(output, "rb") as file:
        expect("a symbolic link is followed and stays a link",
               result.returncode == 0 and os.path.islink(link) and
               unpack(file.read()) == sorted(KEYS), result.stderr)
    dangling = os.path.join(folder, "dangling.bin")
    os.symlink("later.bin", dangling)
    result = run(["--input", source, "--output", dangling])
    expect("a link to a file that does not exist yet creates that file",
           result.returncode == 0 and os.path.islink(dangling) and
           os.path.exists(os.path.join(folder, "later.bin")), result.stderr)
    refused("--output naming the --input file is refused",
            ["--input", source, "--output", source], "names the same file as --input")
    source_link = os.path.join(folder, "source-link.bin")
    os.symlink(source, source_link)
    refused("--output naming the --input file through a link is refused",
            ["--input", source, "--output", source_link], "names the same file as --input")

    # A fifo as output: written through, stays a fifo.
    fifo = os.path.join(folder, "out.fifo")
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(open(fifo, "rb").read()))
    reader.start()
    result = run(["--input", source, "--output", fifo])
    reader.join(timeout=60)
    expect("a fifo output is written through and stays a fifo",
           result.returncode == 0 and stat.S_ISFIFO(os.stat(fifo).st_mode) and
           received and unpack(received[0]) == sorted(KEYS), result.stderr)

    # Character devices: written through, never replaced. As root, devices of our own (the ones
    # /dev/null and /dev/full are), so that a failure cannot replace the system's.
    def device(name, minor):
        if os.geteuid() != 0:
            return f"/dev/{name}"
        path = os.path.join(folder, name)
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
        return path

    null = device("null", 3)
    result = run(["--input", source, "--output", null])
    expect("a character device is written through and stays a device",
           result.returncode == 0 and stat.S_ISCHR(os.stat(null).st_mode), result.stderr)
    # /dev/full takes no bytes: the write fails after the sort, with exit code 2 and the reason.
    full = device("full", 7)
    result = run(["--input", source, "--output", full])
    expect("a write that fails exits 2 with the reason, and the device stays a device",
           result.returncode == 2 and "No space left on device" in result.stderr and
           stat.S_ISCHR(os.stat(full).st_mode), result.stderr)

    # Refused at once.
    refused("a directory as output is refused", ["--log2", "4", "--output", folder],
            "it is a directory")
    refused("a missing folder is refused",
            ["--log2", "4", "--output", os.path.join(folder, "no", "out.bin")], "does not exist")

    # A read-only file is refused, also for root, who could write it anyway; and a /proc
    # file, whose folder takes no new files, is refused with a line that says so.
    read_only = os.path.join(folder, "read-only.bin")
    with open(read_only, "wb") as file:
        file.write(b"keep")
    os.chmod(read_only, 0o444)
    refused("a read-only output file is refused, whoever runs the program",
            ["--input", source, "--output", read_only], "the file is not writable")
    with open(read_only, "rb") as file:
        expect("the read-only file is left as it was", file.read() == b"keep")
    refused("/proc/version as output is refused, not called missing",
            ["--input", source, "--output", "/proc/version"], "not writable")

    # A host sort reports no copies and no warm-up.
    result = run(["--input", source])
    expect("std::sort's report speaks of no copies and no warm-up",
           result.returncode == 0 and "no copies" in result.stdout and
           "warm-up" not in result.stdout and "pinned" not in result.stdout, result.stdout)

    # A long valid name.
    long_name = os.path.join(folder, "k" * 255)
    result = run(["--input", source, "--output", long_name])
    expect("a 255-character file name works", result.returncode == 0, result.stderr)

    # Inputs without a size: a fifo, /dev/stdin, a /proc file.
    input_fifo = os.path.join(folder, "in.fifo")
    os.mkfifo(input_fifo)
    writer = threading.Thread(target=lambda: open(input_fifo, "wb").write(pack(KEYS)))
    writer.start()
    result = run(["--input", input_fifo, "--csv"])
    writer.join(timeout=60)
    expect("a fifo input is read", result.returncode == 0 and "file,1,0" in result.stdout and
           ",pass," in result.stdout, result.stderr)
    with open(source, "rb") as keys:
        result = run(["--input", "/dev/stdin", "--csv"], stdin=keys)
    expect("/dev/stdin is read", result.returncode == 0 and ",pass," in result.stdout,
           result.stderr)
    result = run(["--input", "/proc/self/cmdline"])
    expect("a /proc file is read for what it holds, not called empty",
           "is empty" not in result.stderr and result.returncode in (0, 2), result.stderr)

with tempfile.TemporaryDirectory() as cache:
    environment = dict(os.environ, COURSE_REFERENCE_CACHE=cache)
    first = run(["--log2", "20", "--csv"], env=environment)
    kept = sorted(os.listdir(cache))
    second = run(["--log2", "20", "--csv"], env=environment)
    sizes = {name.rsplit(".", 1)[-1]: os.path.getsize(os.path.join(cache, name)) for name in kept}
    expect("the keys and their reference are kept in COURSE_REFERENCE_CACHE and read back",
           first.returncode == 0 and second.returncode == 0 and ",pass," in second.stdout and
           sorted(os.listdir(cache)) == kept and
           sizes == {"input": (4 << 20) + 32, "sorted": 4 << 20},
           first.stderr + second.stderr + str(kept))
    reference = os.path.join(cache, next(name for name in kept if name.endswith(".sorted")))
    # Zeros: in order, but not the sum of the keys.
    with open(reference, "wb") as wrong:
        wrong.write(bytes(4 << 20))
    third = run(["--log2", "20", "--csv"], env=environment)
    with open(reference, "rb") as made:
        remade = unpack(made.read(64))
    expect("a kept reference that is not the keys' sort is made again",
           third.returncode == 0 and ",pass," in third.stdout and remade != [0] * 16,
           third.stderr)

print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
