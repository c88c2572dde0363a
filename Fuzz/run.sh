#!/usr/bin/env bash
# Builds the libFuzzer target over the wire codec and the answer writers and runs it for SECONDS (default 60).
# Usage: Fuzz/run.sh [SECONDS]
# The seed corpus is every request/response line of docs/PROTOCOL.md. Crashes are written to
# fuzz-out/ (git-ignored); the script fails if libFuzzer finds one.
set -euo pipefail
seconds="${1:-60}"
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
