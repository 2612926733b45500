#!/bin/sh
# cache_dirs_test.sh BUILD_DIR: every test ctest runs there has a cache
# folder of its own (GPUFFTW_CACHE_DIR, tests/cache_dirs.cmake) inside the
# build tree, so that no test reads or writes the user's ~/.cache/gpufftw.
set -eu
b=$(cd "$1" && pwd); tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ctest --test-dir "$b" --show-only=json-v1 > "$tmp/tests.json"
python3 - "$b" "$tmp/tests.json" <<'PY'
import json, sys
build, listing = sys.argv[1], sys.argv[2]
tests = json.load(open(listing))["tests"]
seen, bad = {}, []
for t in tests:
    env = []
    for p in t.get("properties", []):
        if p["name"] in ("ENVIRONMENT", "ENVIRONMENT_MODIFICATION"):
            env += p["value"] if isinstance(p["value"], list) else [p["value"]]
    if t["name"] == "test_cache_emptied":
        continue
    dirs = [e.split("=", 1)[1] for e in env if e.startswith("GPUFFTW_CACHE_DIR=")]
    dirs = [d[len("set:"):] if d.startswith("set:") else d for d in dirs]
    if len(dirs) != 1 or not dirs[0].startswith(build + "/"):
        bad.append("%s: GPUFFTW_CACHE_DIR %s" % (t["name"], dirs or "unset"))
    elif dirs[0] in seen:
        bad.append("%s: the cache folder of %s" % (t["name"], seen[dirs[0]]))
    else:
        seen[dirs[0]] = t["name"]
for b in bad:
    print("FAIL: " + b)
print("%d tests, %d without a cache folder of their own in %s" % (len(tests), len(bad), build))
if not bad:
    print("PASS")
PY
