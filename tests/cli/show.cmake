# tests/cli/show.cmake: coalprobe show on every kind of report (the goldens of the writers and of
# trace and compare, shown again), the width of the tables, the reports beside the main one,
# and files that are no report.

# a sweep report shown again equals what the run's writers printed (the table with --wide: every
# column, as the unit test wrote it); the CSV of measured values keeps the JSON's 15 digits, so it
# is checked on the model's and the GEMM's reports
foreach(name model measured gemm)
  cp_cli_test(show_${name}_table 0 --no-stderr --golden ${CP_GOLDEN}/report_${name}.txt
              -- ${CP_BIN} show ${CP_GOLDEN}/report_${name}.json --wide)
  cp_cli_test(show_${name}_json 0 --no-stderr --golden ${CP_GOLDEN}/report_${name}.json
              -- ${CP_BIN} show ${CP_GOLDEN}/report_${name}.json --format json)
  cp_cli_test(show_${name}_vegalite 0 --no-stderr --golden ${CP_GOLDEN}/report_${name}.vl.json
              -- ${CP_BIN} show ${CP_GOLDEN}/report_${name}.json --format vega-lite)
endforeach()
foreach(name model gemm)
  cp_cli_test(show_${name}_csv 0 --no-stderr --golden ${CP_GOLDEN}/report_${name}.csv
              -- ${CP_BIN} show ${CP_GOLDEN}/report_${name}.json --format csv)
endforeach()
# a model-only run's JSON shows as its CSV; the transpose and GEMM goldens read back whole
cp_cli_test(show_cli_csv 0 --golden ${CP_GOLDEN}/cli_stride_widths.csv
            -- ${CP_BIN} show ${CP_GOLDEN}/cli_stride_widths.json --format csv)
foreach(name cli_transpose cli_gemm cli_stride_widths)
  cp_cli_test(show_${name}_json 0 --golden ${CP_GOLDEN}/${name}.json
              -- ${CP_BIN} show ${CP_GOLDEN}/${name}.json --format json)
endforeach()
# the table fits 100 columns (the GEMM's measured one is 119 wide), says what it left out, and
# fits $COLUMNS when set; --wide shows everything
cp_cli_test(show_fits_100 0 --max-width 100 --no-stderr
            --stdout "^\\(left out to fit 100 columns: measured regs, occ % th/ach, DRAM GB/s. --wide shows them\\)$"
            -- ${CP_BIN} show ${CP_GOLDEN}/report_gemm.json)
cp_cli_test(show_fits_columns 0 --max-width 72 --no-stderr --stdout "^variant +m +n +k +sec/req"
            --stdout "^\\(left out to fit 72 columns: predicted ld eff. measured st sec/req,"
            --stdout "^  .*DRAM GB/s. --wide shows$"
            -- env COLUMNS=72 ${CP_BIN} show ${CP_GOLDEN}/report_gemm.json)
cp_cli_test(show_wide 0 --no-stderr --stdout "DRAM" --stdout "^variant .* regs +th/ach +GB/s match$"
            -- env COLUMNS=72 ${CP_BIN} show ${CP_GOLDEN}/report_gemm.json --wide)
# --sort and --top: the slowest row first, one row; a key no row has is named
cp_cli_test(show_sort_top 0 --no-stderr --golden ${CP_GOLDEN}/show_sort_top.txt
            -- ${CP_BIN} show ${CP_GOLDEN}/report_measured.json --sort -time --top 2)
cp_cli_test(show_sort_config 0 --no-stderr --golden ${CP_GOLDEN}/show_sort_variant.csv
            -- ${CP_BIN} show ${CP_GOLDEN}/report_gemm.json --sort variant --format csv)
cp_cli_test(show_sort_unknown 2 --no-stdout
            --stderr "^coalprobe: --sort: no row of the report has 'colour'$" --stderr "^hint: sort by time, bandwidth"
            -- ${CP_BIN} show ${CP_GOLDEN}/report_gemm.json --sort colour)
# colours: never by default on a pipe; always: the verdicts (NO red)
cp_cli_test(show_color_always 0 --stdout "31mNO" -- ${CP_BIN} show ${CP_GOLDEN}/report_measured.json --color always)
cp_cli_test(show_color_no_color 0 --golden ${CP_GOLDEN}/show_measured.txt
            -- env NO_COLOR=1 ${CP_BIN} show ${CP_GOLDEN}/report_measured.json --color auto)

# a trace report: the JSON reads back byte for byte, the CSV equals trace's, the table fits 100
# columns, --sort and --top per kernel
foreach(fixture handmade-transpose handmade-python-line handmade-ranks handmade-coverage
                handmade-ldgsts h100-sample)
  cp_cli_test(show_trace_${fixture}_json 0 --no-stderr --golden ${CP_TRACE_DIR}/${fixture}.json
              -- ${CP_BIN} show ${CP_TRACE_DIR}/${fixture}.json --format json)
  cp_cli_test(show_trace_${fixture}_table 0 --no-stderr --max-width 100 --stdout "^1 process|processes"
              -- ${CP_BIN} show ${CP_TRACE_DIR}/${fixture}.json)
endforeach()
cp_cli_test(show_trace_csv 0 --no-stderr --golden ${CP_TRACE_DIR}/handmade-transpose.csv
            -- ${CP_BIN} show ${CP_TRACE_DIR}/handmade-transpose.json --format csv)
cp_cli_test(show_trace_table 0 --no-stderr --golden ${CP_TRACE_DIR}/handmade-transpose.show.txt
            -- ${CP_BIN} show ${CP_TRACE_DIR}/handmade-transpose.json)
# every kind of instruction's columns and rows, as trace writes them from its raw files
foreach(fixture handmade-kinds handmade-ldgsts)
  cp_cli_test(show_trace_${fixture}_csv 0 --no-stderr --golden ${CP_TRACE_DIR}/${fixture}.csv
              -- ${CP_BIN} show ${CP_TRACE_DIR}/${fixture}.json --format csv)
  cp_cli_test(show_trace_${fixture}_rows 0 --no-stderr --max-width 100
              --golden ${CP_TRACE_DIR}/${fixture}.show.txt
              -- ${CP_BIN} show ${CP_TRACE_DIR}/${fixture}.json)
endforeach()
cp_cli_test(show_trace_sort_top 0 --no-stderr --stdout "^ +2 \\(no line\\) +0x0040 +ld.gl"
            --stdout "^    \\.\\.\\. 1 more instruction \\(--top N shows more\\)$"
            -- ${CP_BIN} show ${CP_TRACE_DIR}/handmade-transpose.json --sort -sectors --top 1)
cp_cli_test(show_trace_top_csv 0 --no-stderr --stdout "^1,4242," --stdout "^2,4242,"
            --stdout "^3,4242," -- ${CP_BIN} show ${CP_TRACE_DIR}/handmade-transpose.json --top 1 --format csv)
# a trace's chart and page, as trace --format vega-lite and html draw them; a sweep's page
cp_cli_test(show_trace_chart 0 --no-stderr --stdout "vega.github.io/schema/vega-lite"
            -- ${CP_BIN} show ${CP_TRACE_DIR}/handmade-transpose.json --format vega-lite)
cp_cli_test(show_trace_page 0 --no-stderr --stdout "^<!DOCTYPE html>$" --stdout "data-kind=.trace."
            --stdout "id=.cp-columns.>.{.key.:.rank."
            -- ${CP_BIN} show ${CP_TRACE_DIR}/handmade-transpose.json --format html)
cp_cli_test(show_sweep_page 0 --no-stderr --stdout "^<!DOCTYPE html>$" --stdout "id=.cp-rows."
            -- ${CP_BIN} show ${CP_GOLDEN}/report_measured.json --format html)

# comparisons, of sweeps and of traces: as text, CSV and JSON (byte for byte)
cp_cli_test(show_compare_table 0 --no-stderr --golden ${CP_CMP}/mixed.show.txt
            -- ${CP_BIN} show ${CP_CMP}/mixed.json.golden)
cp_cli_test(show_compare_json 0 --no-stderr --golden ${CP_CMP}/mixed.json.golden
            -- ${CP_BIN} show ${CP_CMP}/mixed.json.golden --format json)
cp_cli_test(show_compare_csv 0 --no-stderr
            --stdout "^pattern,config,status,metric,base,new,change,verdict$"
            --stdout "^stride,stride=2 offset=0 .*,regressed,time_s.median,0.000285.*,regressed$"
            -- ${CP_BIN} show ${CP_CMP}/mixed.json.golden --format csv)
cp_cli_test(show_trace_compare 0 --no-stderr --max-width 100
            --stdout "^\\./transpose --n 1024 \\| offset\\(float const\\*, float\\*, int\\) \\| \\(whole kernel\\)$"
            --stdout "^  excess_bytes +1048576 -> 4194304 +\\+300.0%  REGRESSED$"
            -- ${CP_BIN} show ${CP_TRACE_DIR}/handmade-compare.json.golden)
cp_cli_test(show_compare_no_chart 2 --no-stdout --stderr "is a comparison, which has no chart"
            -- ${CP_BIN} show ${CP_CMP}/mixed.json.golden --format vega-lite)

# files that are no report: refused by name, with what they are (exit 2); unreadable: exit 1
set(CP_NOT_REPORT "^coalprobe: '.*' is not a coalprobe report: ")
cp_cli_test(show_not_vegalite 2 --no-stdout --stderr "${CP_NOT_REPORT}it is a Vega-Lite chart"
            -- ${CP_BIN} show ${CP_GOLDEN}/report_gemm.vl.json)
cp_cli_test(show_not_timeline 2 --no-stdout --stderr "${CP_NOT_REPORT}it is a timeline"
            -- ${CP_BIN} show ${CP_TRACE_DIR}/handmade-timeline.chrome-trace)
cp_cli_test(show_not_csv 2 --no-stdout --stderr "${CP_NOT_REPORT}it is a CSV report"
            -- ${CP_BIN} show ${CP_GOLDEN}/report_gemm.csv)
cp_cli_test(show_not_trace_csv 2 --no-stdout --stderr "${CP_NOT_REPORT}it is a trace's CSV report"
            -- ${CP_BIN} show ${CP_TRACE_DIR}/handmade-transpose.csv)
cp_cli_test(show_not_error 2 --no-stdout --stderr "${CP_NOT_REPORT}it is the error document of a failed run"
            -- ${CP_BIN} show ${CP_GOLDEN}/error.json)
cp_cli_test(show_not_json 2 --no-stdout --stderr "${CP_NOT_REPORT}it is not JSON$"
            -- ${CP_BIN} show ${CP_CMP}/not_json.txt)
cp_cli_test(show_not_report 2 --no-stdout --stderr "${CP_NOT_REPORT}it has no \"schema_version\"$"
            -- ${CP_BIN} show ${CP_CMP}/not_report.json)
cp_cli_test(show_schema_2 2 --no-stdout --stderr "has schema_version 2, and this coalprobe .* reads schema_version 1"
            -- ${CP_BIN} show ${CP_CMP}/schema2.json)
cp_cli_test(show_schema_fails 2 --no-stdout --stderr "fails its schema \\(coalprobe-report.schema.json\\)"
            -- ${CP_BIN} show ${CP_CMP}/missing_key.json)
cp_cli_test(compare_not_vegalite 2 --no-stdout --stderr "${CP_NOT_REPORT}it is a Vega-Lite chart"
            -- ${CP_BIN} compare ${CP_GOLDEN}/report_gemm.json ${CP_GOLDEN}/report_gemm.vl.json)
cp_cli_test(compare_not_csv 2 --no-stdout --stderr "${CP_NOT_REPORT}it is a CSV report"
            -- ${CP_BIN} compare ${CP_GOLDEN}/report_gemm.json ${CP_GOLDEN}/report_gemm.csv)
cp_cli_test(show_missing 1 --no-stdout --stderr "cannot read '/nonexistent.json'" -- ${CP_BIN} show /nonexistent.json)
cp_cli_test(show_two 2 --no-stdout --stderr "show takes one report, not 2"
            -- ${CP_BIN} show ${CP_GOLDEN}/report_gemm.json ${CP_GOLDEN}/report_gemm.json)
cp_cli_test(show_bad_format 2 --no-stdout --stderr "--format: 'xml' is not a format of show"
            -- ${CP_BIN} show ${CP_GOLDEN}/report_gemm.json --format xml)
cp_cli_test(show_bad_top 2 --no-stdout --stderr "--top: '0' is below the minimum 1"
            -- ${CP_BIN} show ${CP_GOLDEN}/report_gemm.json --top 0)
cp_cli_test(show_help 0 --no-stderr --stdout "^Usage: coalprobe show REPORT.json" -- ${CP_BIN} show --help)
add_test(NAME cli.show_output_is_input COMMAND sh -c
         "cp \"$1\" \"$2\" && \"$0\" show \"$2\" -o \"$2\" 2>\"$2.err\"; rc=$? && grep -q 'is the report being shown' \"$2.err\" && cmp -s \"$1\" \"$2\" && [ $rc -eq 2 ]"
         ${CP_BIN} ${CP_GOLDEN}/report_gemm.json ${CMAKE_CURRENT_BINARY_DIR}/show_self.json)
set_tests_properties(cli.show_output_is_input PROPERTIES LABELS cli)

# the sweeps measured on an H100 or H200 (docs/results: real counters of every family but layout,
# which has no JSON there) shown within 100 columns, measured columns and all
set(CP_RESULTS ${PROJECT_SOURCE_DIR}/docs/results)
foreach(report 2026-11-21-h100-stride-gemm-ncu/stride_curve 2026-11-23-h100-occupancy-counters-trace/gemm4096 2026-11-21-h100-smem-transpose-expr/smem_load
               2026-11-21-h100-smem-transpose-expr/transpose 2026-11-21-h100-smem-transpose-expr/expr_sweep
               2026-11-21-h200-gather/gather_curve 2026-11-25-h100-readonly-async/readonly_curve
               2026-11-25-h100-readonly-async/async_default)
  get_filename_component(name ${report} NAME)
  cp_cli_test(show_measured_${name} 0 --no-stderr --max-width 100 --stdout "measured"
              -- ${CP_BIN} show ${CP_RESULTS}/${report}.json)
endforeach()

# every family's table fits 100 columns, model only, and shows no measured column
foreach(case "stride;--stride;1..32;--width;4,32;--op;all"
             "layout;layout" "gemm;gemm" "gather;gather;--size;1M" "smem;smem" "transpose;transpose"
             "expr;expr;--index;(i * s) % n;--param;s=1..4;--size;1M" "readonly;readonly;--size;1M"
             "async;async;--size;1M")
  list(POP_FRONT case name)
  cp_cli_test(width_model_${name} 0 --max-width 100 --stdout "predicted" --stdout-not "measured"
              -- ${CP_BIN} ${case} --model)
endforeach()

# the reports beside the main one: sweeps and trace (tests/cli/exports.sh says what)
add_test(NAME cli.exports COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/exports.sh ${CP_BIN} ${CP_TRACE_DIR})
set_tests_properties(cli.exports PROPERTIES LABELS cli TIMEOUT 180 ENVIRONMENT "CUDA_VISIBLE_DEVICES=")
cp_cli_test(trace_exports_help 0 --stdout "--json FILE" --stdout "--csv FILE" --stdout "--chrome-trace FILE" --stdout "--html FILE" -- ${CP_BIN} trace --help)
cp_cli_test(sweep_exports_help 0 --stdout "^  --vega-lite FILE  also write the Vega-Lite chart to FILE" -- ${CP_BIN} --help)
