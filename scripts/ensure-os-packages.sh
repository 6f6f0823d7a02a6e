#!/usr/bin/env bash
# Installs the Debian packages the product and its tests use, when any is missing.
# As root it runs apt-get; otherwise it prints the exact command and what will not work without it.
set -euo pipefail
declare -A PACKAGE_OF=(
  [ffmpeg]=ffmpeg [ffprobe]=ffmpeg [ping]=iputils-ping [mtr]=mtr-tiny [nft]=nftables
  [chromium]=chromium [tmux]=tmux [srt-live-transmit]=srt-tools [redis-server]=redis-server
)
missing=()
for command in "${!PACKAGE_OF[@]}"; do
  command -v "$command" >/dev/null 2>&1 || missing+=("${PACKAGE_OF[$command]}")
done
[ ${#missing[@]} -eq 0 ] && exit 0
packages=$(printf '%s\n' "${missing[@]}" | sort -u | tr '\n' ' ')
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing: $packages" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $packages >/dev/null
else
  echo "missing OS packages: $packages" >&2
  echo "install them with: sudo apt-get install -y $packages" >&2
  echo "until then the media tests (ffmpeg, srt-live-transmit), the console tests (chromium) and the CLI screen tests (tmux) cannot run." >&2
  exit 1
fi
