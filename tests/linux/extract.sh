#!/usr/bin/env bash
# The Linux files some tests read, which the repository may not carry (they are GPL-2.0): Linux's
# arch/arm64/tools/sysreg and perf's arm64 pmu-events JSON. Installs Debian's linux-source-6.12
# when it is missing, and extracts just those files into target/linux-6.12/ (only when they are not
# there yet). Safe to run any number of times.
set -euo pipefail
cd "$(dirname "$0")/../.."

out=target/linux-6.12
wanted=(arch/arm64/tools/sysreg tools/perf/pmu-events/arch/arm64)
if [ -f "$out/.complete" ]; then
  echo "tests/linux/extract.sh: $out is in place"
  exit 0
fi

tarball=/usr/src/linux-source-6.12.tar.xz
if [ ! -f "$tarball" ]; then
  echo "tests/linux/extract.sh: installing linux-source-6.12 (Debian's kernel source, for $tarball)"
  sudo=()
  ((EUID == 0)) || sudo=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  # An install from a never-updated package list finds nothing; update once, then install.
  if ! "${sudo[@]}" apt-get install -y --no-install-recommends linux-source-6.12; then
    "${sudo[@]}" apt-get update
    "${sudo[@]}" apt-get install -y --no-install-recommends linux-source-6.12
  fi
fi

rm -rf "$out" "$out.partial"
mkdir -p "$out.partial"
members=()
for w in "${wanted[@]}"; do members+=("linux-source-6.12/$w"); done
tar -xJf "$tarball" -C "$out.partial" --strip-components=1 "${members[@]}"
for w in "${wanted[@]}"; do
  [ -e "$out.partial/$w" ] || { echo "error: $tarball has no $w" >&2; exit 1; }
done
{ dpkg-query -W -f='linux-source-6.12 ${Version}\n' linux-source-6.12 2>/dev/null || echo linux-source-6.12; } >"$out.partial/.complete"
mv "$out.partial" "$out"
echo "tests/linux/extract.sh: extracted ${wanted[*]} into $out ($(cat "$out/.complete"))"
