# The public types of a generated crate's sources and nothing else, as one Rust file: each
# `pub enum` with as many variants (a layout's empty enum stays empty), each `pub struct` a unit
# struct, all at the root, without impls, constants, functions, re-exports or documentation.
# `cargo doc` of that file is what documenting the crate costs before anything but its types:
# rustdoc builds every type's auto-trait and blanket impls, whatever the type holds.
#
#   find <crate>/src -name '*.rs' | sort | xargs cat | awk -f types_only.awk
#
# Every block's feature is on by default, so every type is counted.
/^[[:space:]]*pub struct [A-Za-z_]/ { printf "pub struct T%d;\n", n++; next }
/^[[:space:]]*pub enum [A-Za-z0-9_]+ \{\}/ { printf "pub enum T%d {}\n", n++; next }
/^[[:space:]]*pub enum [A-Za-z0-9_]+ \{$/ { in_enum = 1; variants = 0; next }
in_enum && /^[[:space:]]*\}/ {
    printf "pub enum T%d {", n++
    for (i = 0; i < variants; i++) printf " V%d,", i
    print " }"
    in_enum = 0
    next
}
in_enum && /^[[:space:]]*[A-Za-z_][A-Za-z0-9_]*( = [^,]+)?,$/ { variants++ }
