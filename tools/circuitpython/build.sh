#!/usr/bin/env bash
# Rebuild, from CircuitPython's source, the binaries kept beside this script
# (README.md says what each is):
#   host    bin/mpy-cross, bin/circuitpython (the unix VM, 32-bit like the
#           RP2040), bin/circuitpython64
#   boards  firmware/*.uf2: the Pico, MacroPad and Feather RP2040 builds, each
#           with its serial console also on a UART, for the emulated RP2040
#
# usage: tools/circuitpython/build.sh [host] [boards]     (default: both)
#
# Writes OUT/bin, OUT/firmware and OUT/SHA256SUMS, the layout of this folder,
# and compares the sums with the kept ones. Altar uses the new build with
# ALTAR_CIRCUITPYTHON=OUT; copying it over this folder (and its SHA256SUMS)
# replaces the kept one.
#
# Environment:
#   OUT     where the binaries go (default: build/circuitpython in the repository)
#   WORK    the sources and build trees, about 1 GB (default: OUT/work)
#   CP_URL  CircuitPython's repository (default https://github.com/adafruit/circuitpython.git;
#           a local clone works too); the submodules come from the URLs its .gitmodules names
#   JOBS    parallel make jobs (default: the number of cores)
#
# Needs: the network (GitHub), git, make, python3 with venv and pip (PyPI), and
#   host:   gcc with 32-bit support (Debian: apt-get install build-essential gcc-multilib)
#   boards: arm-none-eabi-gcc 14 with newlib (Debian 13: apt-get install gcc-arm-none-eabi
#           libnewlib-arm-none-eabi; elsewhere Arm GNU Toolchain 14.2.Rel1 on PATH)
set -euo pipefail

COMMIT=cd3da4a5d894a9648871db7188fc38ee4b344cd4   # 10.3.0-alpha.4-53-gcd3da4a5d8
TAG=10.3.0-alpha.4
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
OUT=${OUT:-$repo/build/circuitpython}
WORK=${WORK:-$OUT/work}
CP_URL=${CP_URL:-https://github.com/adafruit/circuitpython.git}
JOBS=${JOBS:-$(nproc)}
src=$WORK/circuitpython
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(host boards)
for p in "${parts[@]}"; do
  case $p in host|boards) ;; *) echo "build.sh: unknown part '$p' (host, boards)" >&2; exit 2;; esac
done
mkdir -p "$OUT/bin" "$OUT/firmware" "$WORK"

say() { printf '\n== %s\n' "$*"; }
need() { command -v "$1" >/dev/null || { echo "build.sh: $1 is needed: $2" >&2; exit 2; }; }
need git "apt-get install git"
need make "apt-get install build-essential"
need python3 "apt-get install python3 python3-venv"

say "CircuitPython $COMMIT"
if [ ! -e "$src/.git" ]; then
  git init -q "$src"
  git -C "$src" remote add origin "$CP_URL"
fi
if [ "$(git -C "$src" rev-parse -q --verify HEAD || true)" != "$COMMIT" ]; then
  git -C "$src" fetch -q --depth 1 origin "$COMMIT"
  git -C "$src" checkout -q --detach "$COMMIT"
fi
# The build date in each banner is the commit's, so that a rebuild repeats it.
SOURCE_DATE_EPOCH=$(git -C "$src" log -1 --format=%ct)
export SOURCE_DATE_EPOCH
submodules() { git -C "$src" submodule update --init --depth 1 "$@"; }

host() {
  need gcc "apt-get install build-essential"
  echo 'int main(void){return 0;}' | gcc -m32 -x c -o /dev/null - 2>/dev/null \
    || { echo "build.sh: the 32-bit VM needs gcc -m32: apt-get install gcc-multilib" >&2; exit 2; }
  say "submodules for the host tools"
  submodules tools/huffman
  # What py/version.py derives from `git describe` in a full clone.
  export CP_VERSION=$TAG-53-g${COMMIT:0:10}
  say "mpy-cross"
  make -C "$src/mpy-cross" -j"$JOBS" LDFLAGS_EXTRA=-static
  # The unix port's standard variant, less what needs more submodules (ulab, ffi,
  # the frozen micropython-lib) and micropython.RingIO, which no longer builds there.
  # It compiles with -g, and the linker's build ID covers the debug info: the source
  # folder's path mapped to "." keeps the binaries the same from any folder.
  local opts=(VARIANT=standard CIRCUITPY_ULAB=0 MICROPY_PY_FFI=0 FROZEN_MANIFEST=
              "CFLAGS_EXTRA=-DMICROPY_PY_MICROPYTHON_RINGIO=0 -ffile-prefix-map=$src=."
              LDFLAGS_EXTRA=-static)
  say "unix VM, 64-bit"
  make -C "$src/ports/unix" -j"$JOBS" "${opts[@]}" BUILD=build-std64
  say "unix VM, 32-bit"
  make -C "$src/ports/unix" -j"$JOBS" "${opts[@]}" BUILD=build-std32 MICROPY_FORCE_32BIT=1
  cp "$src/mpy-cross/build/mpy-cross" "$OUT/bin/mpy-cross"
  cp "$src/ports/unix/build-std64/micropython" "$OUT/bin/circuitpython64"
  cp "$src/ports/unix/build-std32/micropython" "$OUT/bin/circuitpython"
  "$OUT/bin/mpy-cross" --version
  "$OUT/bin/circuitpython" -c "import sys; print(sys.implementation.name, sys.maxsize)"
}

# The console also on a UART: appended to a board's mpconfigboard.h.
console() {  # console BOARD_DIR TX RX
  grep -q CIRCUITPY_CONSOLE_UART_TX "$1/mpconfigboard.h" || cat >> "$1/mpconfigboard.h" <<EOF

// Altar's emulated board: the serial console also on a UART, readable without USB
#define CIRCUITPY_CONSOLE_UART_TX (&pin_$2)
#define CIRCUITPY_CONSOLE_UART_RX (&pin_$3)
EOF
}

boards() {
  need arm-none-eabi-gcc "arm-none-eabi-gcc 14 with newlib (see the top of this script)"
  # The port's build scripts need packages from PyPI, in a venv. With PyPI's huffman
  # installed, the message tables are coded by it rather than by the tools/huffman
  # submodule (which breaks ties otherwise), as in the kept firmware; the host tools
  # are built without it, by the submodule.
  if [ ! -x "$WORK/venv/bin/python" ]; then
    python3 -m venv "$WORK/venv"
    "$WORK/venv/bin/pip" install -q cascadetoml jinja2 typer 'click<8.2.0' intelhex pyelftools \
      minify_html jsmin tomlkit setuptools huffman
  fi
  local v
  v=$(arm-none-eabi-gcc -dumpversion)
  [ "${v%%.*}" -ge 14 ] || { echo "build.sh: arm-none-eabi-gcc is $v; CircuitPython 10 needs 14" >&2; exit 2; }
  say "submodules for the raspberrypi port"
  submodules ports/raspberrypi/sdk ports/raspberrypi/lib/PicoDVI lib/tinyusb lib/tlsf \
    extmod/ulab lib/quirc lib/mp3 lib/adafruit_floppy data/nvm.toml tools/huffman \
    tools/bitmap_font tools/uf2
  local b=$src/ports/raspberrypi/boards
  # The Pico from a copy of its board folder (its board_id reads raspberry_pi_pico_emu);
  # the MacroPad and the Feather keep the stock board_id.
  [ -d "$b/raspberry_pi_pico_emu" ] || cp -r "$b/raspberry_pi_pico" "$b/raspberry_pi_pico_emu"
  console "$b/raspberry_pi_pico_emu" GPIO0 GPIO1        # UART0
  console "$b/adafruit_macropad_rp2040" GPIO20 GPIO21  # UART1: GP0-1 are keys; GP20-21 are STEMMA QT
  console "$b/adafruit_feather_rp2040" GPIO0 GPIO1     # UART0
  export CP_VERSION=$TAG
  # Left out, as in the kept builds (their sources were not at hand there); none is
  # a module Altar uses.
  local off=(CIRCUITPY_USB_HOST=0 CIRCUITPY_RGBMATRIX=0 CIRCUITPY_HASHLIB=0
             CIRCUITPY_HASHLIB_MBEDTLS=0)
  local board name
  for board in raspberry_pi_pico_emu:raspberry_pi_pico-uart0 \
               adafruit_macropad_rp2040:adafruit_macropad_rp2040-uart1 \
               adafruit_feather_rp2040:adafruit_feather_rp2040-uart0; do
    name=${board#*:}; board=${board%%:*}
    say "firmware: $board"
    PATH=$WORK/venv/bin:$PATH make -C "$src/ports/raspberrypi" BOARD="$board" -j"$JOBS" "${off[@]}"
    cp "$src/ports/raspberrypi/build-$board/firmware.uf2" \
       "$OUT/firmware/circuitpython-$TAG-$name.uf2"
  done
}

for p in "${parts[@]}"; do "$p"; done

say "checksums"
(cd "$OUT" && find bin firmware -type f | LC_ALL=C sort | xargs sha256sum > SHA256SUMS)
cat "$OUT/SHA256SUMS"
if (cd "$OUT" && sha256sum --quiet --ignore-missing -c "$here/SHA256SUMS"); then
  echo "built: the same bytes as the kept binaries"
else
  echo "built: the files said FAILED differ from the kept ones ($here/SHA256SUMS)"
fi
