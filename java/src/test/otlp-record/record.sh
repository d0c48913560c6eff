#!/usr/bin/env bash
# Re-records the OTLP fixtures in java/src/test/resources/otlp/sdk from the OpenTelemetry
# JavaScript SDK's own exporters (versions pinned in package.json). Needs node 20+ and the npm
# registry; run by hand when the SDK moves, then review the diff and commit it. CI only reads the
# committed fixtures (OtlpSdkFixtureTest).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../resources/otlp/sdk"
cd "$here"
npm install --no-audit --no-fund --loglevel=error
rm -rf "$out"
node record.mjs "$out"
ls -l "$out"
