#!/usr/bin/env bash
# Builds the DocC documentation of the SQLiteRecord library into .build/docs (static hosting, base path
# /SQLiteRecord), treating every DocC warning as an error, then fails when a public symbol has no doc comment.
#
# Uses the toolchain's own `docc` (the swift-docc-plugin package is not needed) and a scratch path of its
# own, so it neither rebuilds nor disturbs the main .build.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
# `docc` ships beside `swift` in the toolchain; on Apple platforms `xcrun docc` finds it.
docc=$(command -v docc || true)
if [ -z "$docc" ]; then
    candidate="$(dirname "$(command -v swift)")/docc"
    if [ -x "$candidate" ]; then
        docc="$candidate"
    elif command -v xcrun >/dev/null 2>&1; then
        docc="xcrun docc"
    else
        echo "build-docs: docc not found beside swift" >&2
        exit 1
    fi
fi

symbol_graphs=.build/symbol-graphs
output=.build/docs
scratch=.build/docs-build
rm -rf "$output"
mkdir -p "$symbol_graphs"

# The compiler writes the graphs only when it compiles the module: an up-to-date build leaves a deleted
# graph directory empty, so then build again from a clean scratch path.
build_symbol_graphs() {
    swift build --target SQLiteRecord --scratch-path "$scratch" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$symbol_graphs"
}
build_symbol_graphs
if [ ! -f "$symbol_graphs/SQLiteRecord.symbols.json" ]; then
    rm -rf "$scratch"
    build_symbol_graphs
fi

# Overloads (the where: forms for SQLiteValueConvertible and Encodable values, the column-name forms for
# strings, coding keys and Columns) are shown as one group, so that a link to the shared name resolves to the
# group rather than being ambiguous.
$docc convert Sources/SQLiteRecord/SQLiteRecord.docc \
    --additional-symbol-graph-dir "$symbol_graphs" \
    --fallback-display-name SQLiteRecord \
    --fallback-bundle-identifier org.sqliterecord.SQLiteRecord \
    --output-path "$output" \
    --transform-for-static-hosting \
    --hosting-base-path SQLiteRecord \
    --warnings-as-errors \
    --enable-experimental-overloaded-symbol-presentation

# Every public symbol declared in Sources/ has a doc comment of its own. Symbols with no source location are
# the compiler's (synthesized hashValue, members a standard-library protocol supplies); members that implement
# a standard-library requirement and carry its documentation (`description`, `hash(into:)`, `==`,
# `init(from:)`, `encode(to:)`) are fine without one.
python3 - "$symbol_graphs" <<'PYTHON'
import glob
import json
import os
import sys
from urllib.parse import unquote, urlparse

STANDARD_REQUIREMENTS = {
    "description", "debugDescription", "hash(into:)", "hashValue", "==(_:_:)", "<(_:_:)", "init(from:)",
    "encode(to:)", "init(rawValue:)", "rawValue", "makeIterator()", "next()",
}
OWN_MODULE = "SQLiteRecord"
root = os.getcwd()
offenders = []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.symbols.json"))):
    with open(path, encoding="utf-8") as file:
        graph = json.load(file)
    for symbol in graph["symbols"]:
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        location = symbol.get("location")
        if location is None:
            continue
        comment = symbol.get("docComment")
        text = "".join(line.get("text", "") for line in comment["lines"]).strip() if comment else ""
        inherited = comment is not None and comment.get("module", OWN_MODULE) != OWN_MODULE
        name = symbol["pathComponents"][-1]
        if text and not inherited:
            continue
        if name in STANDARD_REQUIREMENTS:
            continue
        file_path = os.path.relpath(unquote(urlparse(location["uri"]).path), root)
        line = location["position"]["line"] + 1  # symbol graphs count lines from 0
        offenders.append(f"{file_path}:{line}: public symbol without a doc comment: {'.'.join(symbol['pathComponents'])}")

for offender in sorted(set(offenders)):
    print(offender)
if offenders:
    print(f"build-docs: {len(set(offenders))} public symbols without a doc comment", file=sys.stderr)
    sys.exit(1)
print("build-docs: every public symbol has a doc comment")
PYTHON
echo "build-docs: documentation in $output"
