#!/usr/bin/env bash
# install_tree_complete: `cmake --install BUILD --prefix P` into a fresh
# temporary prefix (outside the build tree) gives every file
# cmake/InstallTree.cmake promises, with the expected content, and nothing
# in it points back into the source or build tree.
# Usage: install_tree_test.sh SOURCE_DIR BUILD_DIR VERSION MAN_PAGES(ON|OFF)
set -euo pipefail
src=$1 build=$2 version=$3 man_pages=$4
prefix=$(mktemp -d "${TMPDIR:-/tmp}/bws-install-tree.XXXXXX")
trap 'rm -rf "$prefix"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

cmake --install "$build" --prefix "$prefix" >"$prefix.log" 2>&1 || { cat "$prefix.log"; rm -f "$prefix.log"; exit 1; }
rm -f "$prefix.log"

# The programs.
for tool in bwsurvey bwreport; do
  [ -x "$prefix/bin/$tool" ] || bad "bin/$tool missing or not executable"
done

# The job scripts: every file of jobs/, the same bytes, executable.
n=0
for f in "$src"/jobs/*; do
  name=$(basename "$f") n=$((n + 1))
  installed="$prefix/share/bwsurvey/jobs/$name"
  [ -x "$installed" ] || bad "share/bwsurvey/jobs/$name missing or not executable"
  cmp -s "$f" "$installed" || bad "share/bwsurvey/jobs/$name differs from jobs/$name"
done
[ "$n" -ge 3 ] || bad "only $n files in jobs/"

# The analysis: every file of analysis/ (Python and the report's JavaScript).
while IFS= read -r f; do
  rel=${f#"$src/analysis/"}
  cmp -s "$f" "$prefix/share/bwsurvey/analysis/$rel" || bad "share/bwsurvey/analysis/$rel missing or different"
done < <(find "$src/analysis" -type f ! -path '*/__pycache__/*' ! -name '*.pyc')
[ -f "$prefix/share/bwsurvey/analysis/survey_report.py" ] || bad "survey_report.py not installed"

# The documentation.
doc="$prefix/share/doc/bwsurvey"
for f in README.md LICENSE; do cmp -s "$src/$f" "$doc/$f" || bad "share/doc/bwsurvey/$f missing or different"; done
for f in "$src"/docs/*.md "$src"/docs/images/*; do
  rel=${f#"$src/"}
  cmp -s "$f" "$doc/$rel" || bad "share/doc/bwsurvey/$rel missing or different"
done
# The README's links to docs/ resolve in the installed copy too.
for link in $(grep -o '](docs/[^)#]*' "$doc/README.md" | sed 's/^](//' | sort -u); do
  [ -e "$doc/$link" ] || bad "share/doc/bwsurvey/README.md links to $link, which is not installed"
done
grep -q "BSD 3-Clause" "$doc/LICENSE" || bad "LICENSE is not the BSD 3-Clause text"

# The man pages: a .TH header naming the program and the version, and man
# renders them (NAME section with the one-line description).
if [ "$man_pages" = ON ]; then
  for tool in bwsurvey bwreport; do
    page="$prefix/share/man/man1/$tool.1"
    if [ ! -f "$page" ]; then bad "share/man/man1/$tool.1 missing"; continue; fi
    upper=$(echo "$tool" | tr a-z A-Z)
    grep -q "^\.TH \"\?$upper\"\? \"\?1\"\? .*$tool $version" "$page" || bad "$tool.1: no .TH $upper 1 ... $tool $version line"
    grep -qF -- '\-\-version' "$page" || bad "$tool.1 does not list --version"
    if command -v man >/dev/null; then
      text=$(MANWIDTH=100 man -l "$page" 2>/dev/null | col -b 2>/dev/null || true)
      echo "$text" | grep -q "^NAME" || bad "man -l $tool.1 renders no NAME section"
      echo "$text" | grep -q "$tool - " || bad "man -l $tool.1: no '$tool - ...' line under NAME"
    fi
  done
else
  echo "note: this build has no man pages (help2man was not found at configure time)"
  [ ! -e "$prefix/share/man/man1/bwsurvey.1" ] || bad "a man page was installed though MAN_PAGES=OFF"
fi

# The module file: for this prefix; loaded by Lmod when it is installed
# (PATH, MANPATH, BWSURVEY_ROOT as set), else run by lua with stand-ins for
# Lmod's functions, else at least holding the prefix.
module="$prefix/share/bwsurvey/modulefiles/bwsurvey/$version.lua"
if [ ! -f "$module" ]; then
  bad "share/bwsurvey/modulefiles/bwsurvey/$version.lua missing"
else
  grep -qF "\"$prefix\"" "$module" || bad "the module file does not name the prefix $prefix"
  lmod=""
  for c in "${LMOD_CMD:-}" /usr/share/lmod/lmod/libexec/lmod; do
    [ -n "$c" ] && [ -x "$c" ] && { lmod=$c; break; }
  done
  if [ -n "$lmod" ]; then
    code=$(env -i HOME="$HOME" PATH=/usr/bin:/bin MODULEPATH="$prefix/share/bwsurvey/modulefiles" \
           "$lmod" bash load "bwsurvey/$version" 2>"$prefix.lmod.err") || bad "Lmod failed: $(cat "$prefix.lmod.err")"
    got=$(env -i HOME="$HOME" PATH=/usr/bin:/bin bash -c "$code"'
      echo "PATH=$PATH"; echo "MANPATH=$MANPATH"; echo "ROOT=$BWSURVEY_ROOT"; command -v bwsurvey')
    rm -f "$prefix.lmod.err"
    echo "$got" | grep -qxF "PATH=$prefix/bin:/usr/bin:/bin" || bad "Lmod load: PATH is not prefix/bin first: $got"
    echo "$got" | grep -q "^MANPATH=$prefix/share/man" || bad "Lmod load: MANPATH lacks prefix/share/man: $got"
    echo "$got" | grep -qxF "ROOT=$prefix" || bad "Lmod load: BWSURVEY_ROOT is not the prefix: $got"
    echo "$got" | grep -qxF "$prefix/bin/bwsurvey" || bad "Lmod load: bwsurvey on PATH is not the installed one: $got"
    echo "module file: loaded with Lmod ($lmod)"
  elif command -v lua >/dev/null; then
    got=$(lua -e '
      local out = {}
      function help() end
      function whatis() end
      function depends_on() end
      function pathJoin(a, b) return a .. "/" .. b end
      function setenv(k, v) out[#out + 1] = "setenv " .. k .. "=" .. v end
      function prepend_path(k, v) out[#out + 1] = "prepend " .. k .. "=" .. v end
      dofile(arg[1])
      print(table.concat(out, "\n"))' "$module") || bad "lua could not run the module file"
    echo "$got" | grep -qxF "prepend PATH=$prefix/bin" || bad "module file: no prepend_path PATH prefix/bin: $got"
    echo "$got" | grep -qxF "prepend MANPATH=$prefix/share/man" || bad "module file: no MANPATH: $got"
    echo "$got" | grep -qxF "setenv BWSURVEY_ROOT=$prefix" || bad "module file: no BWSURVEY_ROOT: $got"
    echo "module file: run with lua (no Lmod here)"
  else
    echo "note: neither Lmod nor lua here: the module file was checked for the prefix only"
  fi
fi

# Independence: no symbolic link, and no text file naming the source or
# the build tree (the binaries hold the build paths for use inside the
# build tree only).
[ -z "$(find "$prefix" -type l)" ] || bad "symbolic links in the tree: $(find "$prefix" -type l)"
leaks=$(grep -rlI -e "$src" -e "$build" "$prefix" --exclude-dir=bin || true)
[ -z "$leaks" ] || bad "files naming the source or build tree: $leaks"

[ "$fail" -eq 0 ] && echo "install tree complete: $(find "$prefix" -type f | wc -l) files"
exit "$fail"
