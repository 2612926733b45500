#!/bin/sh
# readme_test.sh BUILD_DIR SOURCE_DIR: README's words hold. Its install
# command into a prefix, then its relink command with pkg-config
# (PKG_CONFIG_PATH=P/lib/pkgconfig, as it says) give a program that starts
# as built, with no LD_LIBRARY_PATH. Its sample report is the demo's real
# one on a machine without an NVIDIA driver (the execute times aside); on a
# machine with one, or a build without the GPU engine, the why differs by
# design and only the rest is compared.
set -u
build=$1
src=$2
readme=$src/README.md
. "$(dirname "$0")/scratch.sh"

# README's commands, word for word.
grep -qx 'cmake --install build --prefix P' "$readme" || fail "README no longer installs with: cmake --install build --prefix P"
relink=$(grep -o 'cc app\.c \$(pkg-config --cflags --libs gpufftw) -o app' "$readme") ||
  fail "README no longer relinks with: cc app.c \$(pkg-config --cflags --libs gpufftw) -o app"
grep -q 'PKG_CONFIG_PATH=P/lib/pkgconfig' "$readme" || fail "README no longer names PKG_CONFIG_PATH=P/lib/pkgconfig"
cmake --install "$build" --prefix "$tmp/P" > "$tmp/log" 2>&1 || fail "cmake --install: $(cat "$tmp/log")"
# A user's FFTW program: an impulse at 0, whose spectrum is all ones.
cat > "$tmp/app.c" <<'EOF'
#include <fftw3.h>
#include <stdio.h>
int main(void) {
  enum { N = 1024 };
  fftw_complex *x = fftw_alloc_complex(N), *y = fftw_alloc_complex(N);
  fftw_plan p = fftw_plan_dft_1d(N, x, y, FFTW_FORWARD, FFTW_ESTIMATE);
  for (int i = 0; i < N; ++i) x[i][0] = x[i][1] = 0;
  x[0][0] = 1;
  fftw_execute(p);
  int wrong = 0;
  for (int i = 0; i < N; ++i) wrong += y[i][0] != 1 || y[i][1] != 0;
  printf("app: %d of %d wrong\n", wrong, N);
  fftw_destroy_plan(p);
  fftw_free(x);
  fftw_free(y);
  return wrong != 0;
}
EOF
(cd "$tmp" && PKG_CONFIG_PATH="$tmp/P/lib/pkgconfig" sh -c "$relink") > "$tmp/log" 2>&1 ||
  fail "$relink: $(cat "$tmp/log")"
# A sanitizer build's library needs its runtime first (CMakeLists.txt).
san=$(cat "$build/sanitizer-preload" 2>/dev/null || true)
(cd "$tmp" && env -u LD_LIBRARY_PATH LD_PRELOAD="$san" ./app) > "$tmp/out" 2>&1 ||
  fail "./app, built as README says, does not run: $(cat "$tmp/out")"
grep -q "app: 0 of 1024 wrong" "$tmp/out" || fail "./app: $(cat "$tmp/out")"
echo "relink: $relink, then ./app: $(cat "$tmp/out")"

# README's commands run as they are in a root shell (CI, a container), where
# there is no sudo.
! grep -nE '(^|[ ;&|(])sudo ' "$readme" > "$tmp/sudo" || fail "README's commands use sudo: $(cat "$tmp/sudo")"
# What the package needs: each package a library of it links to (as
# dpkg-shlibdeps finds them for the .deb), beyond the C and C++ runtimes and
# the real FFTW, is named in README.
if command -v dpkg > /dev/null; then
  for lib in "$build/libgpufftw.so.1" "$build/libgpufftw_mpi.so.1"; do
    [ -f "$lib" ] || continue
    ldd "$lib" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | while read -r name path; do
      # A sanitizer build's runtime is that build's own, never the package's.
      case $name in libc.so*|libm.so*|libstdc++*|libgcc_s*|ld-linux*|libfftw3*|libgpufftw*|libdl.so*|libpthread*) continue ;;
        libasan*|libubsan*|libtsan*|liblsan*) continue ;; esac
      grep -qx "$name" "$tmp/needed" 2>/dev/null && continue
      objdump -p "$lib" | awk '/NEEDED/ { print $2 }' | grep -qx "$name" || continue
      echo "$name" >> "$tmp/needed"
      pkg=$(dpkg -S "$path" 2>/dev/null || dpkg -S "/usr$path" 2>/dev/null) || continue
      pkg=${pkg%%:*}
      grep -q "\`$pkg\`" "$readme" || fail "the package needs $pkg ($name, for $(basename "$lib")); README's list does not name it"
      echo "package: needs $pkg, as README says"
    done || exit 1
  done
fi

# The sample report: the fenced block that starts with the report's title.
awk '/^```/ { if (block) exit; next } /^gpufftw report:/ { block = 1 } block' "$readme" > "$tmp/readme-report"
[ -s "$tmp/readme-report" ] || fail "no sample report in README"
"$build/gpufftw-run" --report -- "$build/compat/spectrogram" > /dev/null 2> "$tmp/err" ||
  fail "the demo's program exited $?: $(cat "$tmp/err")"
# The execute and plan times (columns 11 and 10 wide after the first 25
# characters) read "...".
sed -n '/^gpufftw report:/,$p' "$tmp/err" | sed -E '3,$s/^(.{25}).{11}.{10}/\1        ...       .../' > "$tmp/real-report"
driver=$({ ldconfig -p || /sbin/ldconfig -p; } 2> /dev/null | grep 'libcuda\.so\.1 ')
if grep -q '^GPUFFTW_CUDA_ENGINE:INTERNAL=ON' "$build/CMakeCache.txt" && [ -z "$driver" ]; then
  diff "$tmp/readme-report" "$tmp/real-report" > "$tmp/diff" || fail "README's sample report is not the real one: $(cat "$tmp/diff")"
  echo "report: README's sample is the real one"
else
  # The why follows the problem (the rows' last column before it ends in "place").
  for f in readme-report real-report; do sed -E 's/(place) .*/\1/' "$tmp/$f" > "$tmp/$f.cut"; done
  diff "$tmp/readme-report.cut" "$tmp/real-report.cut" > "$tmp/diff" ||
    fail "README's sample report is not the real one: $(cat "$tmp/diff")"
  echo "report: README's sample is the real one but for the why (this machine has a driver, or no GPU engine)"
fi
echo PASS
