//go:build !(linux && (amd64 || arm64))

package runner

// gofio runs on Linux on amd64 and arm64 only (README, "Platforms"): its
// engines make io_uring, libaio and other Linux system calls directly,
// and make test vets both architectures. Building elsewhere stops here,
// with the reason in the compiler's message, rather than with a page of
// undefined names.
const _ = gofioRunsOnLinuxAmd64AndArm64Only
