#!/usr/bin/env python3
"""Fails when two files define a class, struct or enum of the same name in the
same named namespace (outside anonymous namespaces and function bodies).

Why: two different `bws::history::SeriesPoint` in two headers link without a
word, and `std::vector<SeriesPoint>` then gets one layout's code for the other
layout's objects (ASan: heap-buffer-overflow in `bwreport history show`). The
compiler sees one translation unit at a time; this check sees them all.

Usage: unique_type_names.py SOURCE_ROOT [DIR...]   (default dirs: lib apps)
"""
import os
import re
import sys

TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*|[{};:<>,()=]")


def strip_comments_and_literals(text):
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r'R"(\w*)\(.*?\)\1"', '""', text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"'(?:\\.|[^'\\\n])*'", "''", text)
    text = re.sub(r"^\s*#[^\n]*", " ", text, flags=re.M)
    return text


def namespace_scope_types(text):
    """Yields (namespace path, type name) for each type defined at namespace scope."""
    tokens = TOKEN.findall(strip_comments_and_literals(text))
    scopes = []  # 'anon', 'other' or a namespace name
    pending_namespace = None
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok == "namespace":
            j = i + 1
            name = ""
            if j < len(tokens) and tokens[j] not in "{;=":
                name = tokens[j]
                j += 1
            if j < len(tokens) and tokens[j] == "{":
                pending_namespace = name or "<anon>"
                i = j
                continue
        if tok == "{":
            if pending_namespace is not None:
                scopes.append("anon" if pending_namespace == "<anon>" else pending_namespace)
                pending_namespace = None
            else:
                scopes.append("other")
        elif tok == "}":
            if scopes:
                scopes.pop()
        elif tok in ("struct", "class", "enum", "union"):
            j = i + 1
            if tok == "enum" and j < len(tokens) and tokens[j] in ("class", "struct"):
                j += 1
            if j < len(tokens) and re.match(r"[A-Za-z_]", tokens[j]) and tokens[j] not in ("final",):
                name = tokens[j]
                k = j + 1
                while k < len(tokens) and tokens[k] not in ("{", ";", ">", ",", ")", "=", "("):
                    k += 1
                defined = k < len(tokens) and tokens[k] == "{"
                at_namespace_scope = all(s not in ("anon", "other") for s in scopes)
                if defined and at_namespace_scope:
                    yield "::".join(scopes), name
        i += 1


def main(argv):
    root = argv[1]
    dirs = argv[2:] or ["lib", "apps"]
    seen = {}
    for d in dirs:
        for base, _, files in os.walk(os.path.join(root, d)):
            for f in sorted(files):
                if not f.endswith((".hpp", ".cpp", ".h", ".cc")):
                    continue
                path = os.path.join(base, f)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
                for ns, name in namespace_scope_types(text):
                    seen.setdefault((ns, name), set()).add(os.path.relpath(path, root))
    clashes = {key: files for key, files in seen.items() if len(files) > 1}
    for (ns, name), files in sorted(clashes.items()):
        print(f"{ns}::{name} is defined in {len(files)} files: {', '.join(sorted(files))}")
    if clashes:
        print(f"{len(clashes)} type name(s) defined twice in one namespace: one definition rule broken")
        return 1
    print(f"{len(seen)} namespace-scope types, each defined once")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
