#!/usr/bin/env python3
"""Small files, small functions: no source file of the tools (lib/, apps/,
topology/) over 400 lines, and no function there over 80 lines (its non-empty lines).

A function is found the way the project's style writes one: a line ending
in '{' that carries (or follows) a parameter list and is not a control
statement, a type, a namespace or an initializer; its body ends where
its braces balance (braces in strings and comments left out). Lambdas inside a
function count towards it. Usage: source_sizes.py SOURCE_ROOT"""
import pathlib
import re
import sys

from layer_report import finish

MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 80
FOLDERS = ("lib", "apps", "topology")
NOT_A_FUNCTION = re.compile(r"\s*(namespace|struct|class|enum|union|extern|if|for|while|switch|else|do|try|catch)\b")
OPENS = re.compile(r"^(\s*)(.*)\{$")
# A raw string is data (an OpenCL kernel's source, a help text): its lines
# do not count towards the function that holds it.
RAW_STRINGS = re.compile(r'R"([^(\s]*)\((.*?)\)\1"', re.S)
STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'')


def blank_lines(match):
    """A raw string as `R""` and as many empty lines: the line numbers stay,
    and empty lines are not counted as the function's."""
    return 'R""' + "\n" * match.group(0).count("\n")


def function_bodies(lines):
    """(first line number, body lines) of each function in a file."""
    for i, line in enumerate(lines):
        m = OPENS.match(line.rstrip())
        if not m:
            continue
        head = m.group(2)
        previous = lines[i - 1].rstrip() if i else ""
        signature = head if "(" in head else (previous + head if not previous.endswith((";", "{", "}")) else head)
        if "(" not in signature or NOT_A_FUNCTION.match(head) or head.rstrip().endswith(("=", ",", "(")):
            continue
        if head.strip().startswith(("}", "[", "return", ":")) or re.search(r"\]\s*\(.*\)\s*(mutable\s*)?$", head):
            continue  # an else branch, a lambda, a constructor's initializer list line
        depth = 0
        for j in range(i, len(lines)):
            code = STRINGS.sub('""', lines[j].split("//")[0])
            depth += code.count("{") - code.count("}")
            if depth <= 0:
                yield i + 1, sum(1 for body in lines[i + 1:j] if body.strip())
                break


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    problems = []
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in (".cpp", ".hpp", ".h", ".cu") or not path.is_file():
                continue
            text = path.read_text(errors="replace")
            lines = text.split("\n")
            count = len(lines) - (1 if lines and lines[-1] == "" else 0)
            name = path.relative_to(root)
            if count > MAX_FILE_LINES:
                problems.append(f"{name}: {count} lines; allowed: at most {MAX_FILE_LINES} (split it by concern)")
            for first, body in function_bodies(RAW_STRINGS.sub(blank_lines, text).split("\n")):
                if body > MAX_FUNCTION_LINES:
                    problems.append(f"{name}:{first}: a function of {body} lines; allowed: at most {MAX_FUNCTION_LINES}")
    return finish(problems,
                  f"ok: no file over {MAX_FILE_LINES} lines, no function over {MAX_FUNCTION_LINES} in {', '.join(FOLDERS)}")


if __name__ == "__main__":
    sys.exit(main())
