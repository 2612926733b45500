#!/bin/sh
# compare_html_test.sh BUILD_DIR: gpufftw-compare --html on a real program
# writes one self-contained page: well-formed XML (so that every tag is
# closed), one inline <svg> per chart, each plan labelled as the table
# labels it, gpufftw's error, the real FFTW's and the tolerance as the JSON
# file gives them, the time of the plan's executes, and nothing fetched
# from elsewhere. With an error injected, the plan's row is marked over
# tolerance. Where Debian's chromium is installed, the page is opened in it
# headless and its screenshot must show more than a blank page. An --html
# path that cannot be written stops the tool before the program runs.
set -u
build=$1
. "$(dirname "$0")/scratch.sh"
prog="$build/compat/spectrogram"
problem="r2c f32 n=[4096] howmany=[1024] out-of-place"
"$build/gpufftw-compare" --html "$tmp/clean.html" --file "$tmp/clean.jsonl" -- "$prog" 1 > "$tmp/out" 2>&1 ||
  fail "clean run exited $?: $(cat "$tmp/out")"
page="$tmp/clean.html"
[ -s "$page" ] || fail "no page written: $(cat "$tmp/out")"
python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$page" 2> "$tmp/xml" ||
  fail "the page is not well-formed: $(cat "$tmp/xml")"
[ "$(grep -o '<svg' "$page" | wc -l)" = 2 ] || fail "not one <svg> for each of the two charts: $(cat "$page")"
! grep -qiE 'https?://|<script|<link|<img|url\(' "$page" || fail "the page refers to something outside itself: $(grep -oiE 'https?://[^"]*|<script|<link|<img|url\(' "$page")"
grep -qF "plan 1 · cpu · $problem" "$page" || fail "the plan is not labelled as in the table: $(cat "$page")"
# The three figures the JSON file gives, each on the page as written there.
line=$(cat "$tmp/clean.jsonl")
for key in gpufftw_rel_l2 fftw_rel_l2 tolerance; do
  value=$(echo "$line" | sed -E "s/.*\"$key\":([^,}]*).*/\\1/")
  echo "$value" | grep -qE '^[0-9]' || fail "no $key in the file: $line"
  grep -qF ">$value<" "$page" || fail "$key $value from the file is not on the page: $(cat "$page")"
done
grep -qE 'class="time"[^>]*>[1-9][0-9.]* (ns|µs|ms|s) for 1 execute on cpu<' "$page" ||
  fail "no time for the plan's execute: $(cat "$page")"
! grep -q 'class="row over"' "$page" || fail "a clean run's plan is marked over tolerance"

GPUFFTW_COMPARE_PERTURB=1 "$build/gpufftw-compare" --html "$tmp/over.html" -- "$prog" 1 > "$tmp/out" 2>&1
status=$?
[ $status = 3 ] || fail "perturbed run exited $status, not 3: $(cat "$tmp/out")"
grep -q 'class="row over"' "$tmp/over.html" || fail "the perturbed plan's row is not marked: $(cat "$tmp/over.html")"
grep -qF "OVER tolerance" "$tmp/over.html" || fail "the perturbed plan is not said to be over tolerance"
grep -qF "1 plans, 1 over tolerance" "$tmp/over.html" || fail "the page's summary does not count it"

# A path that cannot be written: said before the program runs, status 2.
"$build/gpufftw-compare" --html "$tmp/no/such/folder/p.html" -- "$prog" 1 > "$tmp/out" 2>&1
status=$?
[ $status = 2 ] || fail "an unwritable --html exited $status, not 2"
grep -qF "gpufftw-compare: --html $tmp/no/such/folder/p.html cannot be written: No such file or directory" "$tmp/out" ||
  fail "an unwritable --html is not said with the reason: $(cat "$tmp/out")"
! grep -q "gpufftw compare:" "$tmp/out" || fail "the program ran despite the unwritable --html"

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "PASS (no headless browser, chromium, installed: opening the page skipped)"
  exit 0
fi
for name in clean over; do
  HOME="$tmp" timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --screenshot="$tmp/$name.png" --window-size=1200,900 "file://$tmp/$name.html" > "$tmp/browser" 2>&1 ||
    fail "$browser could not open the page: $(tail -5 "$tmp/browser")"
  # Decoded: a blank page is one colour; the charts draw many rows in
  # several (text, markers, the tolerance, the bars).
  python3 - "$tmp/$name.png" <<'PY' || fail "$name: no screenshot with the page drawn: $(tail -5 "$tmp/browser")"
import sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h, depth, ctype = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big"), data[24], data[25]
assert (w, h) == (1200, 900) and depth == 8 and ctype in (2, 6), (w, h, depth, ctype)
bpp = 3 if ctype == 2 else 4
idat, pos = b"", 8
while pos < len(data):
    n = int.from_bytes(data[pos:pos + 4], "big")
    if data[pos + 4:pos + 8] == b"IDAT":
        idat += data[pos + 8:pos + 8 + n]
    pos += 12 + n
raw, stride = zlib.decompress(idat), w * bpp
prev, colours, drawn = bytearray(stride), set(), 0
for y in range(h):
    kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if kind == 1: line[i] = (line[i] + a) & 255
        elif kind == 2: line[i] = (line[i] + b) & 255
        elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif kind == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    pixels = {bytes(line[i:i + bpp]) for i in range(0, stride, bpp)}
    colours |= pixels
    drawn += len(pixels) > 1
    prev = line
assert drawn >= 100 and len(colours) >= 4, "%d rows drawn, %d colours" % (drawn, len(colours))
PY
done
echo "PASS (the page opened in $browser)"
