#!/usr/bin/env python3
"""docs suite: the chapters are numbered as their files are, everywhere they are named.

Usage: chapters_test.py SOURCE_ROOT

docs/NN_name.md is chapter NN: its heading starts "# NN. ", every link to it in the chapters and
the README that says "chapter N" says N = NN, and the README's reading list names the chapters
in order, each once. A chapter renumbered by hand in one place and not the others fails here.
The README's opening counts the course's programs and the stages after v5 as stages.txt lists
them ("A course in seventeen ...", "Eleven stages go beyond ..."): a stage added or renamed
without that paragraph fails here too. And a stage's chapter reads no run of a later stage:
no generated block in it names one (or one's variant or experiment), or the fastest stage. Every
relative link of the README, the chapters and the lab notes reaches a file and heading.
"""
import os
import re
import sys

root = os.path.abspath(sys.argv[1])
sys.path.insert(0, os.path.join(root, "tools"))
import course  # noqa: E402

NUMBERS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
           "fourteen fifteen sixteen seventeen eighteen nineteen twenty twenty-one "
           "twenty-two twenty-three twenty-four twenty-five twenty-six").split()
docs = os.path.join(root, "docs")
chapters = sorted(name for name in os.listdir(docs) if re.match(r"\d\d_.*\.md$", name))
# "chapter 12, [text](12_v10_top_k.md)" or "[chapter 5, v3_warp](05_v3_warp.md)"; the README's
# "[Chapter 28, results](docs/28_results.md)".
LINK = re.compile(r"chapter (\d+)\W[^\n]*?\]\((?:docs/)?(\d\d)_[^)]*\.md\)", re.I)

# The pattern itself, on a right and a wrong link.
for sample, pair in (("Next: chapter 12, [the first K](12_v10_top_k.md).", ("12", "12")),
                     ("[Chapter 28, results](docs/29_exercises.md)", ("28", "29"))):
    if LINK.search(sample).groups() != pair:
        sys.exit(f"chapters_test.py: the pattern reads {sample!r} wrong")

problems = []
for name in chapters:
    number = int(name[:2])
    with open(os.path.join(docs, name)) as file:
        heading = file.readline()
    if not heading.startswith(f"# {number}. "):
        problems.append(f"docs/{name}: the heading should start '# {number}. ', it is "
                        f"{heading.strip()!r}")

for path in [os.path.join(docs, name) for name in chapters] + [os.path.join(root, "README.md")]:
    with open(path) as file:
        text = file.read()
    for said, linked in LINK.findall(text):
        if int(said) != int(linked):
            problems.append(f"{os.path.relpath(path, root)}: 'chapter {said}' links to chapter "
                            f"{int(linked)}'s file")

# Each chapter but the last ends pointing at the next one: "Next: chapter N + 1, [...](file)",
# the file of chapter N + 1 (a chapter put in between must move its neighbour's pointer).
NEXT = re.compile(r"^Next: chapter (\d+)\W[^\n]*?\]\((\d\d_[^)]*\.md)\)", re.M)
for name, following in zip(chapters, chapters[1:]):
    with open(os.path.join(docs, name)) as file:
        pointers = NEXT.findall(file.read())
    if pointers != [(str(int(following[:2])), following)]:
        problems.append(f"docs/{name}: its 'Next:' line should point at chapter "
                        f"{int(following[:2])}, {following}; it points at {pointers}")

with open(os.path.join(root, "README.md")) as file:
    listed = re.findall(r"^(\d+)\. \[Chapter \d+[^]]*\]\(docs/(\d\d_[^)]*\.md)\)", file.read(),
                        re.M)
if [name for _, name in listed] != chapters:
    problems.append(f"README.md: the reading list names {[name for _, name in listed]}, the "
                    f"chapters are {chapters}")
problems += [f"README.md: item {item} of the reading list is {name}" for item, name in listed
             if int(item) != int(name[:2])]

# The opening paragraph: the programs (every stage with a chapter) and those after v0 .. v5,
# each of which it names.
programs = [stage.name for stage in course.stages() if stage.chapter]
with open(os.path.join(root, "README.md")) as file:
    opening = file.read().split("\n\n")[1]
counts = {"programs": (r"A course in ([\w-]+) CUDA C\+\+ programs", len(programs)),
          "stages beyond v5": (r"([\w-]+) stages go beyond that progression", len(programs) - 6)}
for what, (pattern, count) in counts.items():
    said = re.search(pattern, opening)
    word = said.group(1).lower() if said else None
    if word != NUMBERS[count]:
        problems.append(f"README.md: the opening should count {NUMBERS[count]} {what} "
                        f"(stages.txt), it says {word}")
named = re.findall(r"\bv(\d+)\b", opening)
missing = [name for name in programs[6:] if name.split("_")[0][1:] not in named]
if missing:
    problems.append(f"README.md: the opening does not name {missing}")

# A stage's chapter reads no run of a later stage: none of its generated blocks names a later
# stage, a variant or an experiment of one (all named vN_...), or reads the fastest of every
# stage; a forward pointer is words, and the lab notes and chapter 28 may look ahead.
BLOCK = re.compile(r"<!-- BEGIN GENERATED ([^\n>]+?) -->")
READS_EVERY_STAGE = re.compile(r"fastest-stage")
for stage in [stage for stage in course.stages() if stage.chapter]:
    number = int(re.match(r"v(\d+)_", stage.name).group(1))
    with open(os.path.join(docs, stage.chapter)) as file:
        keys = BLOCK.findall(file.read())
    for key in keys:
        later = sorted({int(n) for n in re.findall(r"\bv(\d+)_", key)} - set(range(number + 1)))
        if later or READS_EVERY_STAGE.search(key):
            problems.append(f"docs/{stage.chapter}: the block {key!r} reads runs of "
                            + (f"v{later[0]}, a later stage" if later else "every stage"))

# Every relative link of the README, the chapters and the lab notes names a file that exists
# and, with #anchor, a heading of it (as GitHub makes anchors: lower case, punctuation dropped,
# spaces made hyphens); code blocks are left out.
def anchors(path):
    with open(path) as file:
        return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
                for heading in re.findall(r"^#+ (.*)$", file.read(), re.M)}


linked = [os.path.join(root, "README.md"), os.path.join(docs, "results", "README.md")] + \
    [os.path.join(docs, name) for name in sorted(os.listdir(docs)) if name.endswith(".md")] + \
    [os.path.join(docs, "notes", name) for name in sorted(os.listdir(os.path.join(docs, "notes")))
     if name.endswith(".md")]
for path in linked:
    with open(path) as file:
        text = re.sub(r"```.*?```", "", file.read(), flags=re.S)
    for link in re.findall(r"\]\(([^)\s]+)\)", text):
        if link.startswith(("http:", "https:", "mailto:")):
            continue
        target, _, anchor = link.partition("#")
        full = os.path.normpath(os.path.join(os.path.dirname(path), target)) if target else path
        if not os.path.exists(full):
            problems.append(f"{os.path.relpath(path, root)}: the link {link} names no file")
        elif anchor and full.endswith(".md") and anchor not in anchors(full):
            problems.append(f"{os.path.relpath(path, root)}: the link {link} names no heading")

for problem in problems:
    print(problem)
print(f"{len(chapters)} chapters, {len(problems)} problem(s)")
sys.exit(1 if problems else 0)
