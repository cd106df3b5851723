// kproof-run on mbarrier objects (test/Inputs/cuda/mbarrier.cu): an
// mbarrier counts arrivals per phase (PTX ISA 9.7.13.15); an arrival
// publishes what the thread is ordered after, a wait that sees the phase
// complete acquires it (vector clocks), and a spin wait blocks until its
// phase completes. The correct hand-offs run clean and match their
// references under any schedule; the bugs show as a race, a deadlock or a
// misuse of the object.
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/mbarrier.sm90.O3.ptx --contract=%s --contract-name=handoff --random=2 | FileCheck %s --check-prefix=OK
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/mbarrier.sm80.O3.ptx --contract=%s --contract-name=handoff --random=2 --schedule=reversed --mode=exact | FileCheck %s --check-prefix=OK
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/mbarrier.sm90.O3.ptx --contract=%s --contract-name=pingpong --random=2 --schedule=random:5 | FileCheck %s --check-prefix=OK
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/mbarrier.sm80.O3.ptx --contract=%s --contract-name=pingpong --random=1 --schedule=warp-round-robin | FileCheck %s --check-prefix=OK
// RUN: %expect_exit 1 kproof-run %inputs/cuda/ptx/mbarrier.sm90.O3.ptx --contract=%s --contract-name=elected --random=1 | FileCheck %s --check-prefix=ELECTED
// RUN: %expect_exit 1 kproof-run %inputs/cuda/ptx/mbarrier.sm90.O3.ptx --contract=%s --contract-name=count_short --random=1 | FileCheck %s --check-prefix=DEADLOCK
// RUN: %expect_exit 1 kproof-run %inputs/cuda/ptx/mbarrier.sm90.O3.ptx --contract=%s --contract-name=each_warp --random=1 | FileCheck %s --check-prefix=EACHWARP

// OK: "findings": [],
// OK: "result": "ok"

// ELECTED: "kind": "race",
// ELECTED-NEXT: "message": "race: read of 'mb_elected.{{.*}}tile' at byte {{[0-9]+}} by thread ({{[0-9]+}},0,0) of CTA ({{[01]}},0,0) and write by thread ({{[0-9]+}},0,0) of CTA ({{[01]}},0,0) in the same barrier phase",

// DEADLOCK: "kind": "deadlock",
// DEADLOCK-NEXT: "message": "deadlock: every live thread waits and no barrier or warp collective can complete; thread (64,0,0) of CTA (0,0,0) waits at {{.*}} ('kproof.mbarrier_wait')",

// EACHWARP: "kind": "mbarrier misuse",
// EACHWARP-NEXT: "message": "mbarrier misuse: thread (32,0,0) of CTA (0,0,0) initializes the mbarrier at 'mb_init_each_warp.{{.*}}full' at byte 0 while it is in use",

kproof.contract @handoff {
  kernel = "mb_handoff", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {reference = "ref_handoff", output = "y", file = "../Inputs/cuda/ptx/mbarrier.sm80.O3.ptx"}
}
kproof.contract @pingpong {
  kernel = "mb_pingpong", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 256>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {reference = "ref_pingpong", output = "y", file = "../Inputs/cuda/ptx/mbarrier.sm80.O3.ptx"}
}
kproof.contract @elected {
  kernel = "mb_elected", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {reference = "ref_handoff", output = "y", file = "../Inputs/cuda/ptx/mbarrier.sm80.O3.ptx"}
}
kproof.contract @count_short {
  kernel = "mb_count_short", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {reference = "ref_handoff", output = "y", file = "../Inputs/cuda/ptx/mbarrier.sm80.O3.ptx"}
}
kproof.contract @each_warp {
  kernel = "mb_init_each_warp", grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {reference = "ref_handoff", output = "y", file = "../Inputs/cuda/ptx/mbarrier.sm80.O3.ptx"}
}
