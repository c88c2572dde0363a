#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each for SECONDS (default 60): `wire` over the wire codec
# and the answer writers, `plist` over the property-list codec; TARGET picks one (default both).
# Usage: Fuzz/run.sh [SECONDS] [wire|plist]
# The wire seeds are every request/response line of docs/PROTOCOL.md; the plist seeds are
# property lists written by python3's plistlib when it is there. Crashes are written to
# fuzz-out/ (git-ignored); the script fails if libFuzzer finds one.
set -euo pipefail
seconds="${1:-60}"
target="${2:-all}"
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/fuzz-out/build"
corpus="$root/fuzz-out/corpus"
artifacts="$root/fuzz-out/artifacts"
mkdir -p "$build" "$corpus" "$artifacts"

flags=(-sanitize=fuzzer,address -parse-as-library -O -g -package-name jarvis -swift-version 6)

# JarvisCore (the JSON codec, the items and values the answer writers write) as a module of its
# own, so that the wire files compile unchanged with their `import JarvisCore`.
core=()
while IFS= read -r file; do core+=("$file"); done < <(find "$root/Sources/JarvisCore" -name '*.swift' | sort)
swiftc "${flags[@]}" -module-name JarvisCore -emit-module -emit-module-path "$build/JarvisCore.swiftmodule" \
  -emit-library -static -o "$build/libJarvisCore.a" -wmo "${core[@]}"

# The property-list fuzzer needs JarvisCore alone.
(cd "$build" && swiftc "${flags[@]}" -module-name JarvisPlistFuzz -I "$build" -L "$build" -lJarvisCore -wmo \
  "$root/Fuzz/PlistFuzzTarget.swift" -o "$build/plist-fuzzer")
if [ "$target" = plist ] || [ "$target" = all ]; then
  plist_corpus="$root/fuzz-out/plist-corpus"
  mkdir -p "$plist_corpus"
  if command -v python3 >/dev/null; then
    python3 - "$plist_corpus" <<'PY'
import datetime, plistlib, sys
samples = [
    {"text": "ñ <&>", "int": -5, "big": 2**64 - 1, "real": 1.5, "yes": True, "date": datetime.datetime(2020, 1, 2, 3, 4, 5),
     "data": bytes(range(40)), "list": [1, [2, {"k": "v"}], {}], "same": "text", "again": "text"},
    {"k%d" % i: i for i in range(40)},
    {"$objects": ["$null", {"ref": plistlib.UID(1)}]},
]
for index, sample in enumerate(samples):
    for name, fmt in (("xml", plistlib.FMT_XML), ("bin", plistlib.FMT_BINARY)):
        if name == "xml" and "$objects" in sample:
            continue  # XML holds no UIDs
        open("%s/%d.%s" % (sys.argv[1], index, name), "wb").write(plistlib.dumps(sample, fmt=fmt))
PY
  fi
  echo "fuzz: property-list codec for ${seconds}s"
  (cd "$artifacts" && "$build/plist-fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix="$artifacts/plist-" -print_final_stats=1 "$plist_corpus")
  [ "$target" = plist ] && exit 0
fi

# The framer is the transport's (JarvisTransport); the wire files import it from there.
(cd "$build" && swiftc "${flags[@]}" -module-name JarvisTransport -I "$build" -emit-module \
  -emit-module-path "$build/JarvisTransport.swiftmodule" -emit-library -static -o "$build/libJarvisTransport.a" -wmo \
  "$root/Sources/JarvisTransport/LineFramer.swift")

wire=(
  "$root/Sources/JarvisRemote/Wire/RPCRequest.swift"
  "$root/Sources/JarvisRemote/Wire/RPCRequest+ID.swift"
  "$root/Sources/JarvisRemote/Wire/RPCMessage.swift"
  "$root/Sources/JarvisRemote/Wire/RPCResponse.swift"
  "$root/Sources/JarvisRemote/Wire/RPCError.swift"
  "$root/Sources/JarvisRemote/Wire/Wire.swift"
  "$root/Sources/JarvisRemote/Wire/WireFields.swift"
  "$root/Sources/JarvisRemote/Wire/Wire+Error.swift"
  "$root/Sources/JarvisRemote/Wire/WireItem.swift"
  "$root/Sources/JarvisRemote/Wire/WireItem+Extras.swift"
  "$root/Sources/JarvisRemote/Wire/WireItemSink.swift"
  "$root/Sources/JarvisRemote/Agent/AgentMethod.swift"
  "$root/Fuzz/FuzzTarget.swift"
)
# Run from the build folder: swiftc leaves module side files in the working directory.
(cd "$build" && swiftc "${flags[@]}" -module-name JarvisWireFuzz -I "$build" -L "$build" -lJarvisCore -lJarvisTransport -wmo "${wire[@]}" \
  -o "$build/wire-fuzzer")

# Seeds: every line of the protocol document that is a JSON-RPC message, one per file.
index=0
while IFS= read -r line; do
  index=$((index + 1))
  printf '%s\n' "$line" > "$corpus/protocol-$index"
done < <(grep -E '^\{"jsonrpc"' "$root/docs/PROTOCOL.md")
printf '%s' '{"jsonrpc":"2.0","id":1,"method":"ping"}' > "$corpus/no-newline"
printf '[{"jsonrpc":"2.0","id":1,"method":"ping"}]\n' > "$corpus/batch"
echo "fuzz: $index seed lines from docs/PROTOCOL.md; running for ${seconds}s"

cd "$artifacts"
"$build/wire-fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
  -artifact_prefix="$artifacts/" -print_final_stats=1 "$corpus"
