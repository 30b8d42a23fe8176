# tests/cli/families.cmake: CLI tests of the readonly, async and atomic families: their tables,
# --explain pictures, the configurations a sweep leaves out, and the usage errors of their
# parameters; the atomic family's own counters in every writer.

cp_cli_test(readonly_table 0 --golden ${CP_GOLDEN}/cli_readonly.txt
            --stderr "^coalprobe: note: 3 configurations left out: the constant variant's table"
            -- ${CP_BIN} readonly --model --table 4K,64K,1M --index all --size 1M)
cp_cli_test(async_table 0 --golden ${CP_GOLDEN}/cli_async.txt
            --stderr "^coalprobe: note: 2 configurations left out: plain and smem have one stage"
            -- ${CP_BIN} async --model --size 1M --stages 1,2)
cp_cli_test(explain_async_tma 0 --max-width 80 --golden ${CP_GOLDEN}/explain_async_tma.txt
            -- ${CP_BIN} async --model --variant tma-bulk --stages 2 --size 64K --explain)
cp_cli_test(explain_readonly_constant 0 --max-width 80
            --golden ${CP_GOLDEN}/explain_readonly_constant.txt
            -- ${CP_BIN} readonly --model --variant constant --index mod --table 4K --size 64K --explain)
# every rung's schedule fits 80 columns
foreach(variant plain smem cp-async tma-tensor)
  cp_cli_test(explain_async_${variant} 0 --max-width 80 --stdout "^Schedule: block b takes tiles"
              -- ${CP_BIN} async --model --variant ${variant} --stages 1 --size 64K --explain)
endforeach()

# the constant variant over 64 KB does not exist: left out, and said; nothing left is an error
cp_cli_test(readonly_constant_left_out 0
            --stderr "^coalprobe: note: 1 configuration left out: the constant variant's table must fit the 64 KB"
            --stdout "^constant mod +4K +4.00$"
            -- ${CP_BIN} readonly --model --variant constant --table 4K,128K --size 64K)
cp_cli_test(readonly_constant_none 2 --no-stdout
            --stderr "^coalprobe: no configuration of the sweep exists: the constant variant's table"
            -- ${CP_BIN} readonly --model --variant constant --table 1M)
cp_cli_test(async_stages_none 2 --no-stdout
            --stderr "^coalprobe: no configuration of the sweep exists: plain and smem have one stage"
            -- ${CP_BIN} async --model --variant plain --stages 2)

# sizes with suffixes and geometric steps, shown as the input spells them (4K, 64M); their errors
cp_cli_test(readonly_table_sweep 0 --stdout "^plain +mod +256M "
            --stdout "^plain +mod +1K " --stdout "^plain +mod +4K " --stdout "^plain +mod +64M "
            -- ${CP_BIN} readonly --model --variant plain --table 1K..256M:x4 --size 64K)
cp_cli_test(readonly_table_not_entries 2 --no-stdout
            --stderr "^coalprobe: --table: 130 bytes is not a whole number of 4-byte entries"
            -- ${CP_BIN} readonly --table 130)
cp_cli_test(readonly_table_small 2 --no-stdout --stderr "'64' is below the minimum 128"
            -- ${CP_BIN} readonly --table 64)
cp_cli_test(readonly_table_factor 2 --no-stdout --stderr "has a factor below 2"
            -- ${CP_BIN} readonly --table 4K..64K:x1)
cp_cli_test(readonly_index_unknown 2 --no-stdout
            --stderr "--index: unknown value 'stride' \\(expected one of: mod, random, broadcast, all\\)"
            -- ${CP_BIN} readonly --index stride)
cp_cli_test(readonly_index_twice 2 --no-stdout --stderr "--index is given twice"
            --stderr "e.g. --index mod,random" -- ${CP_BIN} readonly --index mod --index random)
cp_cli_test(index_expr_not_readonly 2 --no-stdout
            --stderr "--index belongs to the expr family: write 'coalprobe expr --index EXPR' \\(or 'coalprobe readonly --index mod,random,broadcast'\\)"
            -- ${CP_BIN} gather --index mod)
cp_cli_test(async_stages_max 2 --no-stdout --stderr "--stages: '5' is above the maximum 4"
            -- ${CP_BIN} async --stages 5)
cp_cli_test(async_work_not_stride 2 --no-stdout --stderr "--work does not apply to the stride family"
            --stderr "parameter of 'coalprobe async'" -- ${CP_BIN} --work 4)
cp_cli_test(async_variant_unknown 2 --no-stdout
            --stderr "unknown value 'tma' \\(expected one of: plain, smem, cp-async, tma-bulk, tma-tensor, all\\)"
            -- ${CP_BIN} async --variant tma)
# a GPU below a rung's architecture predicts the row and measures the others: checked on the
# GPU machines by tests/gpu (no GPU here); the model runs everywhere
cp_cli_test(async_model_everywhere 0 --stdout "^tma-tensor +1 +0 +512.00 +1.00$"
            -- ${CP_BIN} async --model --variant tma-tensor --stages 1 --size 64K)

# --- the atomic family: its own counters (predicted, measured, matched) in every writer ------------
cp_cli_test(atomic_table 0 --golden ${CP_GOLDEN}/cli_atomic.txt
            --stderr "^coalprobe: note: 276 configurations left out: --addresses applies to contention and --stride to"
            -- ${CP_BIN} atomic --model --size 64K)
# the CSV has the family's own columns after meas_noisy: pred_ of each, meas_ of each measured
cp_cli_test(atomic_csv 0 --golden ${CP_GOLDEN}/cli_atomic.csv
            -- ${CP_BIN} atomic --model --variant contention,aggregated --addresses 1,4 --type u32
               --size 4100 --format csv)
# several lanes on the same bytes: a store keeps one value (a load's would be a broadcast)
cp_cli_test(explain_store_same_bytes 0 --max-width 80
            --stdout "'\\*': several lanes write the same bytes \\(one of their values stays\\)"
            -- ${CP_BIN} expr --model --index "i / 2" --op store --size 4K --explain)
# (its first line, the configuration, is 84 columns: no --max-width)
cp_cli_test(explain_atomic 0 --golden ${CP_GOLDEN}/explain_atomic.txt
            -- ${CP_BIN} atomic --model --variant contention --addresses 4 --op atom --type u32
               --size 4K --explain)
# a measured report (hand-made from a model report: counters equal to the model's, one row's
# sectors one more, its match false): the table shows them predicted beside measured, the CSV
# writes them, the JSON reads back the same, compare judges them as exact counts
set(CP_ATOMIC_MEASURED ${CP_GOLDEN}/report_atomic_measured.json)
cp_cli_test(show_atomic_measured 0 --no-stderr --golden ${CP_GOLDEN}/show_atomic_measured.txt
            -- env NO_COLOR=1 ${CP_BIN} show ${CP_ATOMIC_MEASURED})
cp_cli_test(show_atomic_measured_csv 0 --no-stderr
            --stdout "^pattern,variant,op,type,addresses,stride_words,elements,.*,meas_noisy,pred_atomic_requests,pred_atomic_sectors,pred_lanes_per_address,meas_atomic_requests,meas_atomic_sectors$"
            --stdout "^atomic,contention,red,u32,1,1,1024,.*,false,.*,32,32,32,32,33$"
            -- ${CP_BIN} show ${CP_ATOMIC_MEASURED} --format csv)
cp_cli_test(show_atomic_measured_json 0 --no-stderr --json
            --stdout "\"lanes_per_address\":[[:space:]]*32" --stdout "\"atomic_sectors\":[[:space:]]*33"
            -- ${CP_BIN} show ${CP_ATOMIC_MEASURED} --format json)
cp_cli_test(show_atomic_measured_html 0 --no-stderr
            --stdout "data-path=\"measured.counters.family_counters.atomic_sectors\""
            --stdout "<td data-v=\"33\">33</td>"
            -- ${CP_BIN} show ${CP_ATOMIC_MEASURED} --format html)
cp_cli_test(show_atomic_measured_chart 0 --no-stderr --json
            --stdout "\"panel\":[[:space:]]*\"atomic_sectors\""
            --stdout "\"panel\":[[:space:]]*\"lanes_per_address\""
            -- ${CP_BIN} show ${CP_ATOMIC_MEASURED} --format vega-lite)
cp_cli_test(compare_atomic_counter 3 --stdout "counters.family_counters.atomic_sectors +33 -> 32"
            -- ${CP_BIN} compare ${CP_ATOMIC_MEASURED} ${CP_GOLDEN}/compare/atomic_fixed.json)
# what a variant does not have is left out; a sweep of nothing but that is a usage error
cp_cli_test(atomic_none 2 --no-stdout
            --stderr "^coalprobe: no configuration of the sweep exists: --addresses applies to contention"
            -- ${CP_BIN} atomic --variant own --addresses 4)
cp_cli_test(atomic_op_names 2 --no-stdout
            --stderr "^coalprobe: --op: unknown value 'load' \\(expected one of: atom, red, all\\)$"
            -- ${CP_BIN} atomic --op load)
cp_cli_test(atomic_addresses_max 2 --no-stdout --stderr "'33' is above the maximum 32"
            -- ${CP_BIN} atomic --addresses 33)
cp_cli_test(atomic_stride_max 2 --no-stdout --stderr "'65' is above the maximum 64"
            -- ${CP_BIN} atomic --variant strided --stride 65)
# the SASS check of the GPU machine (sass_widths.sh) on canned listings: atom executes ATOM, red
# RED, aggregated shuffles; a red kernel that executes an ATOM fails
cp_cli_test(sass_atomics 0 --stdout "^ok   sm_90: atomic kernels: 16, atom ATOM, red RED, aggregated SHFL.BFLY$"
            -- sh ${CMAKE_CURRENT_SOURCE_DIR}/gpu/sass_atomics.sh sm_90 ${CP_GOLDEN}/sass/atomics_sm_90.txt)
cp_cli_test(sass_atomics_red_as_atom 1
            --stdout "^FAIL sm_90: atomic kernels: cp_atomic_kernelIfLi1ELi1E: ATOM 1, RED 0$"
            -- sh ${CMAKE_CURRENT_SOURCE_DIR}/gpu/sass_atomics.sh sm_90 ${CP_GOLDEN}/sass/atomics_sm_90_red_as_atom.txt)
