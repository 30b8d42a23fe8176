#!/bin/sh
# needs_node.sh COMMAND...: runs COMMAND when Node.js and the npm packages of web/ are there (what
# scripts/plot needs); else exits 77, which CTest reports as a skip, saying what is missing (under
# CI, CI=true, exits 1 instead: tests/setup_tools.sh).
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/setup_tools.sh"
command -v node >/dev/null 2>&1 ||
    cp_setup_missing "Node.js" "apt-get install nodejs npm, then sh scripts/setup.sh"
if [ ! -d "$root/web/node_modules/vega-lite" ] || [ ! -d "$root/web/node_modules/vega" ]; then
    cp_setup_missing "web/node_modules" "sh scripts/setup.sh runs npm ci in web/"
fi
exec "$@"
