# pomp-gcc, pomp-g++, pomp-clang, pomp-clang++: a Makefile that adds -fopenmp
# only when $(CC) names gcc or clang builds an OpenMP program with them, and
# the program is instrumented.
source "$(dirname "$0")/lib.sh"

cat > app.c <<'C'
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif
int main(void)
{
    int n = 0;
#pragma omp parallel num_threads(3) reduction(+:n)
    n += 1;
    printf("%d\n", n);
    return 0;
}
C
cp app.c app.cpp
cat > Makefile <<'MK'
ifneq (,$(findstring gcc,$(CC)))
OMPFLAGS = -fopenmp
endif
ifneq (,$(findstring clang,$(CC)))
OMPFLAGS = -fopenmp
endif
ifneq (,$(findstring g++,$(CXX)))
OMPXXFLAGS = -fopenmp
endif
ifneq (,$(findstring clang++,$(CXX)))
OMPXXFLAGS = -fopenmp
endif
app: app.c
	$(CC) $(OMPFLAGS) app.c -o app
appxx: app.cpp
	$(CXX) $(OMPXXFLAGS) app.cpp -o appxx
MK
# clang's sanitizer runtime cannot join gcc's in libpomp (make sanitize): gcc only there
for w in gcc $([ -n "$E2E_SANITIZE" ] || echo clang); do
    rm -f app
    make -s CC="$BUILD/bin/pomp-$w" app > make_$w.log 2>&1 || { cat make_$w.log; fail "make CC=pomp-$w"; }
    assert_eq "$(OMP_NUM_THREADS=4 POMP_OUTPUT_DIR=out_$w ./app)" 3 "pomp-$w: an OpenMP program (3 threads)"
    assert_eq "$(region_sum out_$w parallel 8 begins)" 3 "pomp-$w: the parallel region instrumented"
    rm -f appxx
    make -s CXX="$BUILD/bin/pomp-$([ $w = gcc ] && echo g++ || echo clang++)" appxx > makexx_$w.log 2>&1 ||
        { cat makexx_$w.log; fail "make CXX=pomp-g++/clang++"; }
    assert_eq "$(OMP_NUM_THREADS=4 POMP_OUTPUT_DIR=outxx_$w ./appxx)" 3 "C++ wrapper ($w): an OpenMP program"
    assert_eq "$(region_sum outxx_$w parallel 8 begins)" 3 "C++ wrapper ($w): instrumented"
done
# each wrapper runs the compiler its name says
"$BUILD/bin/pomp-clang" --pomp-verbose -fopenmp -c app.c -o a.o 2> v.err
assert_contains v.err '(^|[ /])clang-19 .*-c ' "pomp-clang compiles with clang-19"
"$BUILD/bin/pomp-gcc" --pomp-verbose -fopenmp -c app.c -o a.o 2> v.err
assert_contains v.err '(^|[ /])gcc .*-c ' "pomp-gcc compiles with gcc"
# the plain pompcc in a sniffing Makefile: serial, as the issue says (the reason for the wrappers)
rm -f app
make -s CC="$BUILD/bin/pompcc" app > /dev/null 2>&1
assert_eq "$(OMP_NUM_THREADS=4 POMP_OUTPUT_DIR=out_plain ./app)" 1 "make CC=pompcc: the Makefile adds no -fopenmp"
