#!/bin/sh
# Seeds each target's corpus from the project's own descriptions and UI fixtures.
set -e
cd "$(dirname "$0")"
R=..
seed() { mkdir -p corpus/$1; shift; for f in "$@"; do [ -f "$f" ] && cp "$f" corpus/$t/ 2>/dev/null || true; done; }
t=native; seed $t $R/descriptions/*.toml $R/codegen/tests/ui/*.toml $R/tests/docs/example/*.toml
t=svd; seed $t $R/codegen/tests/ui/*.svd
t=ti_xml; seed $t $R/codegen/tests/ui/*.xml $(find $R/descriptions -name '*.xml')
t=linux_sysreg; seed $t $R/codegen/tests/ui/*.sysreg
t=perf_json; seed $t $(find $R/codegen/tests/perf -name '*.json' | head -200)
t=arm_pmu_data; seed $t $R/descriptions/third-party/arm-data/pmu/*.json $R/codegen/tests/ui/*.arm.json
t=arm_cpus; seed $t $R/descriptions/third-party/arm-data/cpus.json $R/codegen/tests/ui/*.cpus.json
t=aarchmrs; seed $t $(ls $R/codegen/tests/aarchmrs/*.json | grep -v '\.ir\.json$') $R/codegen/tests/ui/aarchmrs_*.json
t=pipeline; mkdir -p corpus/pipeline; for d in native svd ti_xml linux_sysreg perf_json arm_pmu_data arm_cpus aarchmrs; do cp corpus/$d/* corpus/pipeline/ 2>/dev/null || true; done
