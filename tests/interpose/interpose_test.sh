#!/bin/sh
# interpose_test.sh BUILD_DIR FFTW_LIBDIR: programs that reach FFTW other
# than by linking it, in each way into gpufftw (docs/interposition.md has
# the matrix). Every cell checks the numbers against a direct DFT; a cell
# that must go through gpufftw also checks that its report lists the plan,
# and one that cannot (a plug-in bound to its own FFTW with RTLD_DEEPBIND,
# a private copy under the drop-in folder) that the numbers are still right.
# FFTW_LIBDIR's libfftw3f.so.3 is the private copy. INTERPOSE_WHERE=gpu (on
# a GPU machine, with GPUFFTW_MODE=gpu) also asks that gpufftw's plans ran
# there.
set -u
b=$1 fftw=$2
. "$(dirname "$0")/../scratch.sh"
t=$b/tests/interpose
export GPUFFTW_CACHE_DIR="$tmp/cache"
mkdir -p "$tmp/private"
cp "$fftw/libfftw3f.so.3" "$tmp/private/libfftw3f.so.3"
python_with() {  # MODULE: a Python that imports it, or nothing
  for py in python3 /usr/bin/python3; do
    command -v "$py" >/dev/null 2>&1 && "$py" -c "import $1" 2>/dev/null && { echo "$py"; return; }
  done
}
ctypes_py=$(python_with ctypes)
cffi_py=$(python_with cffi)
# A sanitizer build's runtime must come first in a program not built with
# it (Python) that loads the sanitized gpufftw through the drop-in folder.
san=$(cat "$b/sanitizer-preload" 2>/dev/null || true)
# There, the interpreter's own memory still held at exit reads as leaks.
interpreter_env=
[ -z "$san" ] || interpreter_env=ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:detect_stack_use_after_return=0
rows=0
# cell WAY LOADING EXPECT CMD...: WAY preload|relink|dropin; EXPECT gpufftw
# (the report lists a plan), own (right numbers, no plan through gpufftw)
# or static (gpufftw's message that FFTW is linked in statically).
cell() {
  way=$1 loading=$2 expect=$3
  shift 3
  case "$*" in
    *deepbind*) if [ -n "$san" ]; then echo "$way, $loading: skipped: a sanitizer's runtime refuses RTLD_DEEPBIND"; return; fi ;;
  esac
  case $way in
    preload) set -- "$b/gpufftw-run" --report -- "$@" ;;
    relink) set -- env GPUFFTW_REPORT=1 "$@" ;;
    dropin) set -- env LD_LIBRARY_PATH="$b/dropin" GPUFFTW_REPORT=1 ${san:+LD_PRELOAD="$san"} "$@" ;;
  esac
  "$@" > "$tmp/out" 2>&1
  rc=$?
  [ $rc = 0 ] || { cat "$tmp/out"; fail "$way, $loading: exit $rc"; }
  grep -q "err [0-9.e+-]*" "$tmp/out" || { cat "$tmp/out"; fail "$way, $loading: no result"; }
  case $expect in
    gpufftw) grep -q "^gpufftw report:" "$tmp/out" && grep -q "^  ${INTERPOSE_WHERE:-[a-z]*} .*c2c f32" "$tmp/out" ||
               { cat "$tmp/out"; fail "$way, $loading: no plan reached gpufftw${INTERPOSE_WHERE:+ and ran on the $INTERPOSE_WHERE}"; } ;;
    own) ! grep -q "c2c f32" "$tmp/out" || { cat "$tmp/out"; fail "$way, $loading: a plan reached gpufftw"; } ;;
    static) grep -q "has FFTW linked in statically" "$tmp/out" ||
              { cat "$tmp/out"; fail "$way, $loading: no word on the static FFTW"; } ;;
  esac
  rows=$((rows + 1))
  echo "$way, $loading: $expect: $(grep -m1 "err " "$tmp/out")"
}
for way in preload relink dropin; do
  client=$t/interpose_dlopen_client
  [ $way = relink ] && client=$t/interpose_dlopen_client_relinked
  for flags in now,local now,global lazy,local lazy,deepbind now,deepbind; do
    cell $way "dlopen $flags" gpufftw "$client" $flags libfftw3f.so.3
  done
  cell $way "dlopen, dlvsym" gpufftw "$client" now,local libfftw3f.so.3 dlvsym
  grep -q "versioned FFTW name not found (.*version FFTW_3), versioned C library name found" "$tmp/out" ||
    fail "$way: dlvsym answered other than the C library: $(cat "$tmp/out")"
  cell $way "dlopen, other names" gpufftw "$client" now,local libfftw3f.so.3 names
  grep -q "names: cos(0) 1, strlen 4, RTLD_NEXT gpufftw_version " "$tmp/out" || fail "$way: $(cat "$tmp/out")"
  cell $way "dlopen, two threads" gpufftw "$client" now,global libfftw3f.so.3 threads
  # A private copy, opened by its path: the drop-in folder replaces FFTW by
  # name only, so there it runs on that copy.
  expect=gpufftw
  [ $way = dropin ] && expect=own
  cell $way "private copy by path" $expect "$client" now,local "$tmp/private/libfftw3f.so.3"
done
# RTLD_NEXT from the program finds the object after it: gpufftw when
# preloaded, nothing plain (an answer from the wrong place would show here).
"$t/interpose_dlopen_client" now,local libfftw3f.so.3 names | grep -q "RTLD_NEXT gpufftw_version not found" ||
  fail "plain: RTLD_NEXT found gpufftw"
"$b/gpufftw-run" -- "$t/interpose_dlopen_client" now,local libfftw3f.so.3 names |
  grep -q "RTLD_NEXT gpufftw_version .*libgpufftw.so.1" || fail "preload: RTLD_NEXT did not find gpufftw next"
for way in preload dropin; do
  if [ -n "$ctypes_py" ]; then
    cell $way "Python ctypes" gpufftw env $interpreter_env "$ctypes_py" "$(dirname "$0")/ctypes_client.py"
  else echo "$way, Python ctypes: skipped, no python3"; fi
  if [ -n "$cffi_py" ]; then
    cell $way "Python cffi (ABI mode)" gpufftw env $interpreter_env "$cffi_py" "$(dirname "$0")/cffi_client.py"
  else echo "$way, Python cffi: skipped, no python3 with cffi (python3-cffi)"; fi
  cell $way "plug-in, RTLD_LOCAL" gpufftw "$t/interpose_plugin_host" "$t/interpose_fftw_plugin.so" local
  # RTLD_DEEPBIND binds the plug-in to its own FFTW before a preloaded
  # gpufftw; the drop-in folder makes its FFTW gpufftw.
  expect=own
  [ $way = dropin ] && expect=gpufftw
  cell $way "plug-in, RTLD_DEEPBIND" $expect "$t/interpose_plugin_host" "$t/interpose_fftw_plugin.so" deepbind
done
# The plug-in's own FFTW makes the plan; the host runs and destroys it
# through the entries dlsym finds on the plug-in's handle, gpufftw's under
# preload, which give it back to the FFTW that made it.
cell preload "plug-in plan, gpufftw's execute" own \
  "$t/interpose_plugin_host" "$t/interpose_fftw_plugin.so" deepbind mixed
# The program links FFTW, so FFTW's internal calls are bound (now) to
# gpufftw, first in the lookup order; the plug-in then enters that FFTW
# directly. Those calls go back to that FFTW.
cell preload "plug-in into FFTW bound to gpufftw" own \
  env LD_BIND_NOW=1 "$t/interpose_plugin_host_linked" "$t/interpose_fftw_plugin.so" deepbind
# The same two with the plug-in's FFTW found through a relative
# LD_LIBRARY_PATH, which the loader keeps as the relative name it found.
cell preload "plug-in plan, gpufftw's execute, its FFTW by a relative path" own \
  env -C "$tmp" LD_LIBRARY_PATH=private "$t/interpose_plugin_host" "$t/interpose_fftw_plugin.so" deepbind mixed
cell preload "plug-in into FFTW bound to gpufftw, by a relative path" own \
  env -C "$tmp" LD_LIBRARY_PATH=private LD_BIND_NOW=1 "$t/interpose_plugin_host_linked" \
  "$t/interpose_fftw_plugin.so" deepbind
# The same with the plug-in on another vendor's FFTW interface, which has
# FFTW's public names and none of its internals.
cell preload "plug-in plan on another vendor's FFTW interface, gpufftw's execute" own \
  "$t/interpose_plugin_host" "$t/interpose_vendor_plugin.so" deepbind mixed
# A profiling tool in front of FFTW (preloaded before gpufftw, or before
# the drop-in folder's FFTW, or before a relinked program's gpufftw): it
# hands each call on with RTLD_NEXT, to gpufftw, which answers it; the
# tool counts every call.
if [ -n "$san" ]; then
  echo "a tool in front of gpufftw: skipped: a sanitizer's runtime must come first in LD_PRELOAD"
else
  wrapper=$t/interpose_fftw_wrapper.so
  for way in preload dropin relink; do
    case $way in
      preload) set -- env LD_PRELOAD="$wrapper:$b/libgpufftw.so.1" "$t/interpose_wrapped_client" ;;
      dropin) set -- env LD_LIBRARY_PATH="$b/dropin" LD_PRELOAD="$wrapper" "$t/interpose_wrapped_client" ;;
      relink) set -- env LD_PRELOAD="$wrapper" "$t/interpose_wrapped_client_relinked" ;;
    esac
    cell relink "a tool in front of gpufftw ($way)" gpufftw "$@"
    grep -q "^fftw_wrapper: 1 plans, 1 executes, 1 destroys" "$tmp/out" ||
      fail "a tool in front of gpufftw ($way): the tool's counts: $(cat "$tmp/out")"
  done
fi
if [ -x "$t/interpose_static_client" ]; then
  cell preload "FFTW linked statically" static "$t/interpose_static_client"
  GPUFFTW_COMPARE=1 GPUFFTW_LIBRARY="$b/libgpufftw.so.1" "$b/gpufftw-compare" -- "$t/interpose_static_client" \
    > "$tmp/out" 2>&1 && grep -q "has FFTW linked in statically" "$tmp/out" ||
    fail "gpufftw-compare said nothing of the static FFTW: $(cat "$tmp/out")"
  # No word where no FFTW is in the program at all.
  "$b/gpufftw-run" --report -- sh -c true > "$tmp/out" 2>&1
  [ ! -s "$tmp/out" ] || fail "a shell under --report printed: $(cat "$tmp/out")"
else
  echo "FFTW linked statically: skipped, no libfftw3f.a"
fi
echo "$rows cells passed"
echo PASS
