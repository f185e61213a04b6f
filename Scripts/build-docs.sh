#!/usr/bin/env bash
# Builds the DocC documentation of the SQLiteRecord and PostgresRecord libraries into .build/docs/<module>
# (static hosting, base path /<module>), treating every DocC warning as an error, then fails when a public
# symbol has no doc comment.
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

# Builds one module's symbol graphs (the module's own, and its extensions of other modules' types) into
# .build/symbol-graphs/<module> and converts its catalog into .build/docs/<module>.
#   document MODULE [swift build options]
document() {
    local module=$1
    shift
    local all_graphs=.build/symbol-graphs/$module-all
    local graphs=.build/symbol-graphs/$module
    local scratch=.build/docs-build-$module
    rm -rf "$all_graphs" "$graphs" ".build/docs/$module"
    mkdir -p "$all_graphs" "$graphs" .build/docs
    # The compiler writes the graphs only when it compiles the module: an up-to-date build leaves a deleted
    # graph directory empty, so then build again from a clean scratch path.
    build_symbol_graphs() {
        swift build --target "$module" --scratch-path "$scratch" "$@" \
            -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$all_graphs"
    }
    build_symbol_graphs "$@"
    if [ ! -f "$all_graphs/$module.symbols.json" ]; then
        rm -rf "$scratch"
        build_symbol_graphs "$@"
    fi
    # Only this module's graphs: a dependency's (SQLiteRecord's, for PostgresRecord) has its own catalog.
    cp "$all_graphs/$module".*json "$all_graphs/$module"@*.json "$graphs"/ 2>/dev/null || true

    # Overloads (the where: forms for SQLiteValueConvertible and Encodable values, the column-name forms for
    # strings, coding keys and Columns) are shown as one group, so that a link to the shared name resolves to
    # the group rather than being ambiguous.
    $docc convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$graphs" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.sqliterecord.$module" \
        --output-path ".build/docs/$module" \
        --transform-for-static-hosting \
        --hosting-base-path "$module" \
        --warnings-as-errors \
        --enable-experimental-overloaded-symbol-presentation
    check_doc_comments "$module" "$graphs"
}

# Every public symbol declared in Sources/ has a doc comment of its own. Symbols with no source location are
# the compiler's (synthesized hashValue, members a standard-library protocol supplies); members that implement
# a standard-library requirement and carry its documentation (`description`, `hash(into:)`, `==`,
# `init(from:)`, `encode(to:)`) are fine without one.
check_doc_comments() {
python3 - "$2" "$1" <<'PYTHON'
import glob
import json
import os
import sys
from urllib.parse import unquote, urlparse

STANDARD_REQUIREMENTS = {
    "description", "debugDescription", "hash(into:)", "hashValue", "==(_:_:)", "<(_:_:)", "init(from:)",
    "encode(to:)", "init(rawValue:)", "rawValue", "makeIterator()", "next()",
}
OWN_MODULE = sys.argv[2]
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
print(f"build-docs: every public symbol of {OWN_MODULE} has a doc comment")
PYTHON
}

document SQLiteRecord
# PostgresRecord is built with the PostgreSQL trait, which needs libpq's headers (Debian's libpq-dev).
if pkg-config --exists libpq 2>/dev/null; then
    document PostgresRecord --traits PostgreSQL
else
    echo "build-docs: PostgresRecord skipped (no libpq: install libpq-dev)"
fi
echo "build-docs: documentation in .build/docs"
