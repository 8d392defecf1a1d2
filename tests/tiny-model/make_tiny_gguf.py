"""Writes a tiny llama-architecture model in GGUF with random weights, for tests only.

No model weights may be fetched in tests, so the browser tests make this one: 2 layers of width
32 over a vocabulary of the 256 byte tokens and a few pieces (any text tokenizes, byte by byte;
only ASCII comes out),
with a ChatML template. It answers nonsense, but a grammar can hold it to any format, and the
same seed gives the same tokens. About 165 KB.

    python3 tests/tiny-model/make_tiny_gguf.py OUT.gguf [--seed N] [--q4_1]

With --q4_1 the layers' matrices are stored as Q4_1, the type the in-tab engine reads as Q5_1.
"""

import argparse

import gguf
import numpy as np

N_EMBD, N_LAYER, N_HEAD, N_FF, N_CTX = 32, 2, 4, 64, 4096


def vocabulary():
    tokens = ["<unk>", "<s>", "</s>"] + [f"<0x{b:02X}>" for b in range(256)]
    types = [gguf.TokenType.UNKNOWN, gguf.TokenType.CONTROL, gguf.TokenType.CONTROL]
    # Bytes from 0x80 are ordinary pieces that read as their own names ("<0xC1>"): text still
    # tokenizes byte by byte, but random weights cannot write a byte sequence that is not
    # UTF-8, which llama.cpp's server fails on when it writes the reply as JSON.
    types += [gguf.TokenType.BYTE] * 128 + [gguf.TokenType.NORMAL] * 128
    pieces = ["\u2581"] + [chr(c) for c in range(ord("a"), ord("z") + 1)] + ["\u2581the", "\u2581a"]
    tokens += pieces + ["<|im_start|>", "<|im_end|>"]
    types += [gguf.TokenType.NORMAL] * len(pieces) + [gguf.TokenType.CONTROL] * 2
    return tokens, types


def write(path, seed, q4_1=False):
    rng = np.random.default_rng(seed)
    tokens, types = vocabulary()
    n_vocab = len(tokens)

    w = gguf.GGUFWriter(path, "llama")
    w.add_name("agora-tiny-random")
    w.add_context_length(N_CTX)
    w.add_embedding_length(N_EMBD)
    w.add_block_count(N_LAYER)
    w.add_feed_forward_length(N_FF)
    w.add_head_count(N_HEAD)
    w.add_head_count_kv(N_HEAD)
    w.add_rope_dimension_count(N_EMBD // N_HEAD)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_vocab_size(n_vocab)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    w.add_tokenizer_model("llama")
    w.add_tokenizer_pre("default")
    w.add_token_list(tokens)
    w.add_token_scores([0.0] * n_vocab)
    w.add_token_types(types)
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    w.add_unk_token_id(0)
    w.add_add_bos_token(True)
    w.add_add_eos_token(False)
    w.add_chat_template(
        "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
        "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
    )

    def weights(*shape):
        return (rng.standard_normal(shape) * 0.2).astype(np.float32)

    def matrix(name, *shape):
        data = weights(*shape)
        if q4_1:
            w.add_tensor(name, gguf.quants.quantize(data, gguf.GGMLQuantizationType.Q4_1),
                         raw_dtype=gguf.GGMLQuantizationType.Q4_1)
        else:
            w.add_tensor(name, data)

    ones = np.ones(N_EMBD, dtype=np.float32)
    # Shapes in numpy order (rows, columns): GGUF stores them the other way round.
    w.add_tensor("token_embd.weight", weights(n_vocab, N_EMBD))
    w.add_tensor("output_norm.weight", ones)
    w.add_tensor("output.weight", weights(n_vocab, N_EMBD))
    for i in range(N_LAYER):
        w.add_tensor(f"blk.{i}.attn_norm.weight", ones)
        for part in ("q", "k", "v", "output"):
            matrix(f"blk.{i}.attn_{part}.weight", N_EMBD, N_EMBD)
        w.add_tensor(f"blk.{i}.ffn_norm.weight", ones)
        matrix(f"blk.{i}.ffn_gate.weight", N_FF, N_EMBD)
        matrix(f"blk.{i}.ffn_up.weight", N_FF, N_EMBD)
        matrix(f"blk.{i}.ffn_down.weight", N_EMBD, N_FF)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Write a tiny random GGUF model for tests.")
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--q4_1", action="store_true")
    args = parser.parse_args()
    write(args.out, args.seed, args.q4_1)
