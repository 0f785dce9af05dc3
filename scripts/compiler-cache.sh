# Sourced by build.sh and test-all.sh: the CMake flags that put ccache in
# front of the compilers when it is installed (bws_cache_flags, empty
# otherwise). Paths under the source tree are hashed relative to it
# (CCACHE_BASEDIR) and the build folder is left out of the hash
# (CCACHE_NOHASHDIR), so a fresh clone in another folder reuses the objects
# of an earlier build of the same sources. A machine without ccache builds
# as before.
bws_cache_flags=()
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  bws_cache_flags=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
