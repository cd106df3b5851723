"""Triton kernels used as kproof test fixtures.

These are compiled ahead of time (no GPU needed) by compile_fixtures.py into
PTX / TTGIR / TTIR under ptx/. They are deliberately small and written for this
project; each docstring says which proof they feed.
"""

import triton
import triton.language as tl


@triton.jit
def softmax_row_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols,
                       BLOCK: tl.constexpr):
    """Row softmax, one program per row, the whole row in one block.

    out[r, c] = exp(x[r, c] - max_c x[r, :]) / sum_c exp(x[r, c] - max_c x[r, :])
    for c < n_cols (requires n_cols <= BLOCK). Masked lanes load -inf so they
    contribute exp(-inf) = 0 to the sum and do not affect the max.

    Fixture for: Triton-side two-pass softmax proof (block reductions lowered to
    shfl.sync.bfly + shared memory, masked loads with a default value).
    """
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_row_stride + cols, mask=mask, other=-float("inf"))
    m = tl.max(x, axis=0)
    e = tl.exp(x - m)
    s = tl.sum(e, axis=0)
    tl.store(out_ptr + row * out_row_stride + cols, e / s, mask=mask)


@triton.jit
def layernorm_fwd_kernel(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr,
                         row_stride, n_cols, eps, BLOCK: tl.constexpr):
    """LayerNorm forward, one program per row, the whole row in one block.

    mean = sum(x)/N, var = sum((x-mean)^2)/N, rstd = 1/sqrt(var + eps),
    y = (x - mean) * rstd * w + b; also stores mean and rstd per row
    (requires n_cols <= BLOCK).

    Fixture for: layernorm proofs (two dependent block reductions, rsqrt
    approximation bounds, masked lanes excluded from the statistics).
    """
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n_cols
    xc = tl.where(mask, x - mean, 0.0)
    var = tl.sum(xc * xc, axis=0) / n_cols
    rstd = tl.rsqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    b = tl.load(b_ptr + cols, mask=mask, other=0.0)
    y = xc * rstd * w + b
    tl.store(y_ptr + row * row_stride + cols, y, mask=mask)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)


@triton.jit
def attn_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, sm_scale, seq_len,
                    CAUSAL: tl.constexpr, BLOCK_M: tl.constexpr,
                    BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    """Small fused attention forward (FlashAttention-style), fp16 in/out.

    Q, K, V, O are [heads, seq_len, HEAD_DIM] contiguous fp16; program (m, h)
    computes rows [m*BLOCK_M, (m+1)*BLOCK_M) of head h:

      O[i] = sum_j softmax_j(sm_scale * <Q[i], K[j]>) V[j]
             over j < seq_len, and j <= i when CAUSAL.

    Online softmax in base 2: scores are pre-scaled by sm_scale * log2(e) and
    exponentiated with exp2; the running max m_i, denominator l_i and fp32
    accumulator are rescaled by exp2(m_old - m_new) per key block. With
    CAUSAL the key loop stops at the query block's diagonal block.

    Fixture for: the Triton fused-attention proof (tensor-core dot lowering,
    online softmax across key blocks, causal masking / block skipping).
    """
    start_m = tl.program_id(0)
    head = tl.program_id(1)
    base = head * seq_len * HEAD_DIM
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)

    q = tl.load(q_ptr + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
                mask=offs_m[:, None] < seq_len, other=0.0)
    m_i = tl.full([BLOCK_M], -float("inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.4426950408889634  # log2(e)

    if CAUSAL:
        hi = tl.minimum(seq_len, (start_m + 1) * BLOCK_M)
    else:
        hi = seq_len
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        kt = tl.load(k_ptr + base + cols[None, :] * HEAD_DIM + offs_d[:, None],
                     mask=cols[None, :] < seq_len, other=0.0)
        qk = tl.dot(q, kt) * qk_scale
        valid = cols[None, :] < seq_len
        if CAUSAL:
            valid = valid & (offs_m[:, None] >= cols[None, :])
        qk = tl.where(valid, qk, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        alpha = tl.math.exp2(m_i - m_new)
        p = tl.math.exp2(qk - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + base + cols[:, None] * HEAD_DIM + offs_d[None, :],
                    mask=cols[:, None] < seq_len, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_ptr + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
             acc.to(tl.float16), mask=offs_m[:, None] < seq_len)


@triton.jit
def matmul_tile_kernel(a_ptr, b_ptr, c_ptr, BM: tl.constexpr, BN: tl.constexpr,
                       BK: tl.constexpr):
    """One tile product C = A @ B with tl.dot: A [BM, BK] and B [BK, BN] fp16
    row-major, C [BM, BN] fp32.

    Fixture for: tensor cores as Triton emits them on sm_80 (the tiles
    staged in shared memory with an XOR swizzle, read back by ldmatrix,
    multiplied by mma.sync.m16n8k16 with .b32 accumulators).
    """
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * BK + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * BN + rn[None, :])
    c = tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], c)
