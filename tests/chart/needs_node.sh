#!/bin/sh
# needs_node.sh COMMAND...: runs COMMAND when Node.js and the npm packages of web/ are there (what
# scripts/plot needs); else exits 77, which CTest reports as a skip, saying what is missing.
root=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v node >/dev/null 2>&1; then
    echo "skipped: Node.js is missing (apt-get install nodejs npm, then sh scripts/setup.sh)" >&2
    exit 77
fi
if [ ! -d "$root/web/node_modules/vega-lite" ] || [ ! -d "$root/web/node_modules/vega" ]; then
    echo "skipped: web/node_modules is missing (sh scripts/setup.sh runs npm ci there)" >&2
    exit 77
fi
exec "$@"
