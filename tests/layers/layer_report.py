"""The one way a layers check ends: each problem on its own line and exit
1, or one 'ok' line and exit 0."""


def finish(problems, ok_line, prefix=""):
    for problem in problems:
        print(prefix + problem)
    if problems:
        return 1
    print(ok_line)
    return 0
