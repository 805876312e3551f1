# make bench, part 3a: compile time through pompcc against the plain compiler,
# on the examples and on the construct suite. Sourced by bench/run.sh.

compile_part() {
    local d=$WORK/compile
    mkdir -p "$d"
    local ex=$here/../examples
    # row label -> source (compiled with -c) ; one full build of a two-file program with its link
    local -a rows=("examples/demo.c" "examples/workshare/main.c" "examples/workshare/work.c"
                   "bench/constructs/constructs.c" "ctc/ctc.c (no OpenMP)" "workshare: 2 files + link")
    local -A src=(["examples/demo.c"]=$ex/demo.c ["examples/workshare/main.c"]=$ex/workshare/main.c
                  ["examples/workshare/work.c"]=$ex/workshare/work.c
                  ["bench/constructs/constructs.c"]=$here/constructs/constructs.c
                  ["ctc/ctc.c (no OpenMP)"]=$here/../ctc/ctc.c)
    record "#section|compile|ms wall time|Compile time, -O2 -fopenmp (cc: $(cc -dumpfullversion 2>/dev/null || cc -dumpversion))"
    record "#baseline|compile|cc"
    record "#note|compile|pompcc runs pomp-instrument (libclang) and then cc on the instrumented file; a source without a pragma, omp_ call or main (ctc/ctc.c) goes to cc as it is; at the link, pomp-prelink (ELF symbol tables) and the compile of pomp_init.c"
    record "#section|compile-cpu|ms CPU time|Compile CPU time (user + system of the compiler and its children; less sensitive than wall time to other processes)"
    record "#baseline|compile-cpu|cc"
    local rep row tool
    for ((rep = 0; rep < REPS; rep++)); do
        say "compile time: repetition $((rep + 1))/$REPS"
        for row in "${rows[@]}"; do
            for tool in cc pompcc; do
                local compiler=cc
                [ "$tool" = pompcc ] && compiler=$BUILD/bin/pompcc
                local stats
                if [ -n "${src[$row]:-}" ]; then
                    stats=$(cd "$d" && "$OUT/runstat" "$compiler" -O2 -fopenmp -I"$ex/workshare" -c "${src[$row]}" -o "$d/x.o")
                else
                    stats=$(cd "$d" && "$OUT/runstat" "$compiler" -O2 -fopenmp -I"$ex/workshare" \
                                "$ex/workshare/main.c" "$ex/workshare/work.c" -o "$d/workshare")
                fi
                local fields
                read -r -a fields <<<"$stats"
                record "compile|$row|$tool|$rep|${fields[0]}"
                record "compile-cpu|$row|$tool|$rep|${fields[1]}"
            done
        done
    done
}
