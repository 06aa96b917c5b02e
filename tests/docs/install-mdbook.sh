#!/usr/bin/env bash
# Installs mdBook, which builds the book in docs/ (`mdbook build docs`), when the pinned version is
# missing: from crates.io with `cargo install` into cargo's bin folder (~/.cargo/bin), without the
# features a build does not use (serve, watch, search), which keeps the install to about a minute
# of compiling. tests/tests/book.rs builds the book with it and names this script when it is
# missing.
set -euo pipefail

version=0.4.52
bin="${CARGO_HOME:-$HOME/.cargo}/bin/mdbook"
if [[ -x "$bin" ]] && [[ "$("$bin" --version)" == "mdbook v$version" ]]; then
  echo "tests/docs/install-mdbook.sh: mdbook $version is installed"
  exit 0
fi
echo "tests/docs/install-mdbook.sh: installing mdbook $version"
cargo install mdbook --locked --no-default-features --version "$version"
