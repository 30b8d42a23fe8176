# tests/cli/compare.cmake: CLI tests of coalprobe compare: inputs that fail their schema, an output
# that is one of the inputs, values printed in full, strings made safe for a terminal, reports
# of different GPUs.

# -o naming one of the inputs (however it is reached) is refused before any work
add_test(NAME cli.compare_output_is_input
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/compare_same_file.sh ${CP_BIN} ${CP_GOLDEN}/compare)
set_tests_properties(cli.compare_output_is_input PROPERTIES LABELS cli ENVIRONMENT "CUDA_VISIBLE_DEVICES=")

# A report that fails its schema (docs/schema/, built into coalprobe) is not compared: exit 2,
# nothing on stdout, the file, the row (index, pattern and config), the key, expected and found.
# The inputs are written by tests/golden/compare/make_robustness.py.
set(CP_CMP ${CP_GOLDEN}/compare)
cp_cli_test(compare_schema_string_sweep 2 --no-stdout
            --stderr "^coalprobe: '.*/bad_type.json' fails its schema \\(coalprobe-report.schema.json\\): rows\\[1\\] \\(stride stride=2 offset=0 offset_bytes=0 width_bytes=4 op=load elements=67108864\\), key predicted.load.sectors: expected an integer, found the string \"123\"$"
            -- ${CP_BIN} compare ${CP_CMP}/base.json ${CP_CMP}/bad_type.json)
cp_cli_test(compare_schema_string_sweep_json 2 --json --stdout "\"kind\":[[:space:]]*\"usage\""
            --stderr "key predicted.load.sectors: expected an integer"
            -- ${CP_BIN} compare ${CP_CMP}/bad_type.json ${CP_CMP}/base.json --format json)
cp_cli_test(compare_schema_string_trace 2 --no-stdout
            --stderr "^coalprobe: '.*/trace_bad_type.json' fails its schema \\(coalprobe-trace.schema.json\\): instructions\\[1\\] \\(vec_copy, pc 0x0040\\), key excess_bytes: expected an integer or null, found the string \"9\"$"
            -- ${CP_BIN} compare ${CP_GOLDEN}/trace/handmade-transpose.json ${CP_CMP}/trace_bad_type.json)
cp_cli_test(compare_schema_missing_key 2 --no-stdout
            --stderr "^coalprobe: '.*/missing_key.json' fails its schema \\(coalprobe-report.schema.json\\): rows\\[2\\] \\(stride stride=4 [^)]*\\), key predicted.load.requests: expected a value \\(the key is required\\), found nothing$"
            -- ${CP_BIN} compare ${CP_CMP}/base.json ${CP_CMP}/missing_key.json)
# the JSON of a comparison is not a report, though it has schema_version, tool and rows: said so
cp_cli_test(compare_schema_wrong_kind 2 --no-stdout
            --stderr "^coalprobe: '.*/mixed.json.golden' is not a coalprobe report: it is the output of coalprobe compare, not a report$"
            -- ${CP_BIN} compare ${CP_CMP}/mixed.json.golden ${CP_CMP}/base.json)

# huge values print whole: a count and a time of 1e300, and their change with its % sign
# (expect.sh checks one --stdout pattern: one test each)
cp_cli_test(compare_huge_count 3
            --stdout "^  counters.load.sectors  8388608 -> 1e\\+300 \\(\\+1e\\+300, \\+[0-9]{290,}\\.[0-9]%\\)  changed$"
            -- ${CP_BIN} compare ${CP_CMP}/base.json ${CP_CMP}/huge.json)
cp_cli_test(compare_huge_time 3
            --stdout "^  time_s.median  285.1 us -> [0-9]{300,}\\.[0-9] us \\(\\+[0-9]{300,}\\.[0-9]%\\)  REGRESSED$"
            -- ${CP_BIN} compare ${CP_CMP}/base.json ${CP_CMP}/huge.json)
# a kernel name of 5000 characters prints whole
cp_cli_test(compare_long_name 3
            --stdout " \\| transpose_naive_(x{1000}){5}_end \\| /home/user/proj/transpose.cu:13$"
            -- ${CP_BIN} compare ${CP_CMP}/trace_escape.json ${CP_CMP}/trace_escape_after.json)

# control characters of a report's strings are escaped in the text and on stderr
add_test(NAME cli.compare_escapes
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/compare_escape.sh ${CP_BIN} ${CP_CMP})
set_tests_properties(cli.compare_escapes PROPERTIES LABELS cli ENVIRONMENT "CUDA_VISIBLE_DEVICES=")

# reports of different GPUs (other_gpu.json: base.json on an A100, one measured sector count
# different): each report's GPU named, a warning, the measured count not comparable (exit 0); the
# model's predictions still compared strictly (other_gpu_model.json: a predicted count changed, exit 3)
cp_cli_test(compare_other_gpu 0
            --stdout "^base: .*base.json \\(GPU: NVIDIA H100 80GB HBM3\\)$"
            --stdout "^new:  .*other_gpu.json \\(GPU: NVIDIA A100-SXM4-80GB\\)$"
            --stdout "^  counters.load.sectors  8388608 -> 8388640 .*  not comparable$"
            --stderr "^coalprobe: warning: the reports come from different GPUs \\(base: NVIDIA H100 80GB HBM3. new: NVIDIA A100-SXM4-80GB\\)"
            -- ${CP_BIN} compare ${CP_CMP}/base.json ${CP_CMP}/other_gpu.json)
cp_cli_test(compare_other_gpu_json 0 --json --stdout "\"new_device\":[[:space:]]*\"NVIDIA A100-SXM4-80GB\""
            --stdout "\"verdict\":[[:space:]]*\"not_comparable\""
            -- ${CP_BIN} compare ${CP_CMP}/base.json ${CP_CMP}/other_gpu.json --format json)
cp_cli_test(compare_other_gpu_predicted 3 --stdout "^  predicted.load.sectors .*  changed$"
            -- ${CP_BIN} compare ${CP_CMP}/base.json ${CP_CMP}/other_gpu_model.json)
# trace reports of different GPUs (trace_other_gpu.json: handmade-transpose-after.json on an
# A100): each GPU named, the warning, every measured count that differs not comparable, none
# regressed (the same pair from one GPU exits 3: the offset kernel's excess regressed)
cp_cli_test(compare_trace_other_gpu 0
            --stdout "^base: .*handmade-transpose.json \\(GPU: NVIDIA H100 80GB HBM3\\)$"
            --stdout "^new:  .*trace_other_gpu.json \\(GPU: NVIDIA A100-SXM4-80GB\\)$"
            --stdout "^  excess_bytes +1048576 -> 4194304 \\(\\+300.0%\\)  not comparable$"
            --stdout-not "  (REGRESSED|improved|changed)$"
            --stderr "^coalprobe: warning: the reports come from different GPUs \\(base: NVIDIA H100 80GB HBM3. new: NVIDIA A100-SXM4-80GB\\)"
            -- ${CP_BIN} compare ${CP_GOLDEN}/trace/handmade-transpose.json ${CP_CMP}/trace_other_gpu.json)
cp_cli_test(compare_trace_other_gpu_json 0 --json
            --stdout "\"base_device\":[[:space:]]*\"NVIDIA H100 80GB HBM3\""
            --stdout "\"new_device\":[[:space:]]*\"NVIDIA A100-SXM4-80GB\""
            --stdout "\"regressed\":[[:space:]]*0,"
            -- ${CP_BIN} compare ${CP_GOLDEN}/trace/handmade-transpose.json ${CP_CMP}/trace_other_gpu.json --format json)
# what show, compare and trace --from-raw read: - as standard input, strict JSON, no FIFO, exact
# whole numbers, raw directories and files once, counts past 2^64, the sources a page embeds
add_test(NAME cli.input_rules
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/input_rules.sh ${CP_BIN} ${CP_GOLDEN})
set_tests_properties(cli.input_rules PROPERTIES LABELS cli TIMEOUT 300 ENVIRONMENT "CUDA_VISIBLE_DEVICES=")
