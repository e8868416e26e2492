#!/usr/bin/env bash
# System packages the test suite uses (Debian). Idempotent; skipped when already present or not root.
set -uo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v go >/dev/null 2>&1 || need+=(golang-go)
[ -d /usr/share/gocode/src/github.com/Masterminds/sprig ] || need+=(golang-github-masterminds-sprig-dev)
command -v yamllint >/dev/null 2>&1 || need+=(yamllint)
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then echo "missing system packages (${need[*]}); install them with apt-get" >&2; exit 0; fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null 2>&1 || true
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null 2>&1 || echo "warning: could not install ${need[*]}" >&2
exit 0
