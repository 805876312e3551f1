# progs/device.c offloaded to an NVIDIA GPU (clang-19 --offload-arch=sm_90,
# CUDA at /usr/local/cuda): the same transfers and kernels as on the host
# plugin (test_device.sh). Skips (exit 77) where there is no GPU or no CUDA
# toolkit, as in CI. E2E_GPU_ARCH overrides the architecture.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/lib.sh"
ARCH=${E2E_GPU_ARCH:-sm_90}
CUDA=${CUDA_PATH:-/usr/local/cuda}
[ -z "$E2E_SANITIZE" ] || { echo "skipped under sanitizers"; exit 77; }
nvidia-smi -L > gpus.txt 2>/dev/null && grep -q GPU gpus.txt || { echo "skipped: no NVIDIA GPU here"; exit 77; }
[ -d "$CUDA" ] || { echo "skipped: no CUDA toolkit at $CUDA"; exit 77; }
cp "$HERE/progs/device.c" .
# Debian keeps the device runtime's bitcode beside libomp, not in clang's own folder
OFFLOAD=(-fopenmp --offload-arch=$ARCH --cuda-path=$CUDA --libomptarget-nvptx-bc-path=$LIBOMP_DIR)
N=100000 M=5000

clang-19 -g "${OFFLOAD[@]}" device.c -o plain -Wl,-rpath,$LIBOMP_DIR
# CUDA 13's ptxas writes its cubins' flags in a new layout (ELF ABI version 8),
# which LLVM 19's CUDA plugin misreads (as sm_90a with a minor version of 4,
# seen on an H100 with driver 580): clang-19's own build then finds no image
# for the GPU, and pomp has nothing to measure there
if ! OMP_TARGET_OFFLOAD=MANDATORY ./plain > plain.txt 2> plain.err; then
    cat plain.err
    grep -q "No images found compatible" plain.err &&
        { echo "skipped: clang-19's own GPU build does not run here ($("$CUDA/bin/ptxas" --version | tail -1))"; exit 77; }
    fail "the plain clang-19 GPU build does not run"
fi
"$POMPCC" -g "${OFFLOAD[@]}" device.c -o app 2> build.err || { cat build.err; fail "pompcc GPU build"; }
OMP_TARGET_OFFLOAD=MANDATORY POMP_OUTPUT_DIR=out POMP_TRACE=otf2 ./app > app.txt 2> app.err
diff plain.txt app.txt || fail "the instrumented program's output differs"
P=out/profile.json
cat gpus.txt
jq -c '.devices[] | {device, type, timing, note, total}' $P
"$REPORT" out | sed -n '/^Devices/,$p'
total() { jq -r ".devices[0].total.$1" $P; }
assert_eq "$(total kernels.count)" 2 "kernels on the GPU"
assert_eq "$(total to_device.bytes)" $((8 * N + 8 * M)) "bytes to the GPU"
assert_eq "$(total from_device.bytes)" $((2 * 8 * N + 8 * M)) "bytes from the GPU"
otf2_nesting out/traces.otf2 > /dev/null
echo "device gpu: OK"
