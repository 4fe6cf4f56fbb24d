// GGUF headers, written by the spec-following writer in tests/support, read back;
// then every way a stranger's file can lie, each one located to the byte.
#include <catch2/catch.hpp>

#include <fstream>

#include "qsel/artifact/gguf.h"
#include "qsel/core/errors.h"
#include "support/artifact_writer.h"
#include "support/fixtures.h"

using namespace qsel;
using test::le32;
using test::le64;

namespace {

// A small llama-shaped model: Q4_K matrices, Q6_K output, F32 norms (a Q4_K_M mixture).
test::GgufWriter small_model() {
  test::GgufWriter w;
  w.str("general.architecture", "llama");
  w.u32("general.file_type", 15);
  w.u32("general.quantization_version", 2);
  w.u32("llama.block_count", 2);
  w.u32("llama.embedding_length", 256);
  w.u32("llama.attention.head_count", 4);
  w.u32("llama.attention.head_count_kv", 2);
  w.str_array("tokenizer.ggml.tokens", {"<s>", "</s>", "a", "b", "c", "d", "e", "f", "g", "h", "i"});
  w.tensor("token_embd.weight", {256, 512}, 12, 256, 144);  // Q4_K
  for (int l = 0; l < 2; ++l) {
    std::string p = "blk." + std::to_string(l) + ".";
    w.tensor(p + "attn_norm.weight", {256}, 0, 1, 4);            // F32
    w.tensor(p + "attn_q.weight", {256, 256}, 12, 256, 144);     // Q4_K
    w.tensor(p + "ffn_down.weight", {512, 256}, 14, 256, 210);   // Q6_K
  }
  w.tensor("output.weight", {256, 512}, 14, 256, 210);           // Q6_K
  return w;
}

std::string write(const test::TempDir& d, const std::string& bytes, const std::string& name = "m.gguf") {
  return d.write(name, bytes).string();
}

std::string gguf_error_of(const std::string& path) {
  try {
    read_gguf(path);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("gguf: a v3 header reads back: metadata, tensor infos, sizes from the block structs", "[artifact][gguf]") {
  test::TempDir d;
  auto w = small_model();
  std::string path = write(d, w.bytes());
  GgufFile g = read_gguf(path);
  CHECK(g.version == 3);
  CHECK(g.string("general.architecture") == "llama");
  CHECK(g.integer("general.file_type") == 15);
  CHECK(g.integer("llama.block_count") == 2);
  const auto* tokens = g.find("tokenizer.ggml.tokens");
  REQUIRE(tokens);
  CHECK((*tokens)["length"] == 11);
  CHECK((*tokens)["head"].size() == 8);  // only the first values are kept
  REQUIRE(g.tensors.size() == 8);
  CHECK(g.tensors[0].name == "token_embd.weight");
  CHECK(g.tensors[0].type->name == "Q4_K");
  CHECK(g.tensors[0].elements == 256 * 512);
  CHECK(g.tensors[0].bytes == 256 * 512 / 256 * 144);
  CHECK(g.tensors[1].bytes == 256 * 4);
  CHECK(g.tensors[3].bytes == 512 * 256 / 256 * 210);
  CHECK(g.data_offset % 32 == 0);
  CHECK(g.data_offset >= w.header_bytes());
  CHECK(g.file_size == w.bytes().size());
}

TEST_CASE("gguf: general.alignment is honoured and checked", "[artifact][gguf]") {
  test::TempDir d;
  test::GgufWriter w;
  w.alignment = 64;
  w.u32("general.alignment", 64);
  w.tensor("a", {64}, 0, 1, 4);
  w.tensor("b", {64}, 0, 1, 4);
  GgufFile g = read_gguf(write(d, w.bytes()));
  CHECK(g.alignment == 64);
  CHECK(g.tensors[1].offset == 256);
  test::GgufWriter bad;
  bad.u32("general.alignment", 48);
  CHECK(gguf_error_of(write(d, bad.bytes(), "b.gguf")).find("general.alignment 48 is not a power of two") != std::string::npos);
}

TEST_CASE("gguf: hostile headers fail with the byte offset and what was expected", "[artifact][gguf]") {
  test::TempDir d;
  std::string good = small_model().bytes();
  auto patched = [&](std::size_t at, const std::string& bytes) {
    std::string b = good;
    b.replace(at, bytes.size(), bytes);
    return write(d, b, "p" + std::to_string(at) + ".gguf");
  };
  CHECK(gguf_error_of(write(d, "GGUX" + good.substr(4), "magic.gguf")) == d.path().string() + "/magic.gguf: byte 0: not a GGUF file (expected the magic bytes \"GGUF\")");
  CHECK(gguf_error_of(write(d, "GG", "short.gguf")) ==
        d.path().string() + "/short.gguf: byte 0: expected the GGUF magic (4 bytes), the file ends at byte 2");
  CHECK(gguf_error_of(patched(4, le32(0x03000000))).find("byte 4: a big-endian GGUF file") != std::string::npos);
  CHECK(gguf_error_of(patched(4, le32(7))).find("byte 4: GGUF version 7 (versions 2 and 3 are read)") != std::string::npos);
  CHECK(gguf_error_of(patched(8, le64(~0ull))).find("byte 8: tensor count 18446744073709551615 is not plausible (at most 65536)") != std::string::npos);
  CHECK(gguf_error_of(patched(16, le64(1ull << 40))).find("byte 16: metadata key count 1099511627776 is not plausible") != std::string::npos);
  // the first key's length claims far more than the file holds
  CHECK(gguf_error_of(patched(24, le64(1ull << 60))).find("byte 32: metadata key is 1152921504606846976 bytes long; at most 65536 is plausible") !=
        std::string::npos);
  std::string tiny = "GGUF" + le32(3) + le64(0) + le64(1) + le64(60000) + "abc";
  CHECK(gguf_error_of(write(d, tiny, "tiny.gguf")) ==
        d.path().string() + "/tiny.gguf: byte 32: metadata key is 60000 bytes long, past the end of the file (3 bytes left)");
  // truncated in the middle of the tensor infos
  CHECK(gguf_error_of(write(d, good.substr(0, small_model().header_bytes() - 5), "cut.gguf")).find("the file ends at byte") != std::string::npos);
  // truncated data: the last tensor runs past the end
  CHECK(gguf_error_of(write(d, good.substr(0, good.size() - 100), "data.gguf")).find("tensor \"output.weight\"") != std::string::npos);
}

TEST_CASE("gguf: impossible values inside the header", "[artifact][gguf]") {
  test::TempDir d;
  auto one = [&](auto&& build, const std::string& name) {
    test::GgufWriter w;
    build(w);
    return gguf_error_of(write(d, w.bytes(), name));
  };
  CHECK(one([](auto& w) { w.tensor("t", {100}, 12, 256, 144); }, "rows.gguf")
            .find("tensor \"t\": 100 elements per row is not a multiple of the Q4_K block (256)") != std::string::npos);
  CHECK(one([](auto& w) { w.tensor("t", {32}, 99, 1, 1); }, "type.gguf").find("tensor \"t\": unknown ggml type 99") != std::string::npos);
  CHECK(one([](auto& w) { w.tensor("t", {32, 0}, 0, 1, 4); }, "zero.gguf").find("dimension 1 is 0, not a plausible size") != std::string::npos);
  CHECK(one([](auto& w) { w.tensor("t", {1ull << 40, 1ull << 40}, 0, 1, 4); }, "huge.gguf")
            .find("tensor \"t\": dimensions [1099511627776, 1099511627776] hold more than 2^50 elements, not a plausible tensor") != std::string::npos);
  CHECK(one([](auto& w) { w.tensor("t", {32}, 0, 1, 4); w.tensor("t", {32}, 0, 1, 4); }, "dup.gguf").find("tensor \"t\" is listed twice") !=
        std::string::npos);
  CHECK(one([](auto& w) { w.str("k", "a"); w.str("k", "b"); }, "dupkey.gguf").find("metadata key \"k\" appears twice") != std::string::npos);
  // an array whose count cannot fit in the file
  std::string arr = "GGUF" + le32(3) + le64(0) + le64(1) + test::gguf_str("a") + le32(9) + le32(4) + le64(1ull << 50);
  CHECK(gguf_error_of(write(d, arr, "arr.gguf")).find("a: array of 1125899906842624 uint32 values cannot fit") != std::string::npos);
  std::string nested = "GGUF" + le32(3) + le64(0) + le64(1) + test::gguf_str("a") + le32(9) + le32(9) + le64(1);
  CHECK(gguf_error_of(write(d, nested, "nested.gguf")).find("an array of arrays") != std::string::npos);
  std::string badtype = "GGUF" + le32(3) + le64(0) + le64(1) + test::gguf_str("a") + le32(13);
  CHECK(gguf_error_of(write(d, badtype, "vt.gguf")).find("a: unknown value type 13 (expected 0-12)") != std::string::npos);
  std::string badbool = "GGUF" + le32(3) + le64(0) + le64(1) + test::gguf_str("a") + le32(7) + std::string(1, '\x05');
  CHECK(gguf_error_of(write(d, badbool, "bool.gguf")).find("a: a bool is 0 or 1, got 5") != std::string::npos);
}

TEST_CASE("gguf: overlapping tensors and offsets off the alignment", "[artifact][gguf]") {
  test::TempDir d;
  // two tensors whose infos point at the same data
  std::string b = "GGUF" + le32(3) + le64(2) + le64(0);
  for (const char* n : {"a", "b"}) b += test::gguf_str(n) + le32(1) + le64(64) + le32(0) + le64(0);
  b.append((32 - b.size() % 32) % 32, '\0');
  b.append(256, '\0');
  CHECK(gguf_error_of(write(d, b, "overlap.gguf")).find("tensors \"a\" and \"b\" overlap") != std::string::npos);
  std::string m = "GGUF" + le32(3) + le64(1) + le64(0) + test::gguf_str("a") + le32(1) + le64(64) + le32(0) + le64(7);
  CHECK(gguf_error_of(write(d, m, "misaligned.gguf")).find("data offset 7 is not a multiple of the alignment 32") != std::string::npos);
}

TEST_CASE("gguf: not a regular file", "[artifact][gguf]") {
  test::TempDir d;
  std::filesystem::create_directories(d.path() / "dir.gguf");
  CHECK(gguf_error_of((d.path() / "dir.gguf").string()) == (d.path() / "dir.gguf").string() + ": not a regular file");
  CHECK(gguf_error_of("/dev/null") == "/dev/null: not a regular file");
  CHECK(gguf_error_of((d.path() / "missing.gguf").string()).find("cannot open") != std::string::npos);
}

// Found by tests/fuzz/fuzz_gguf: strings that are not UTF-8 (keys, values, tensor
// names) made the metadata unprintable as JSON. They are kept with U+FFFD.
TEST_CASE("gguf: strings that are not UTF-8 are kept readable (fuzz regression)", "[artifact][gguf]") {
  test::TempDir d;
  test::GgufWriter w;
  w.str("bad\xff" "key", "val\xfe" "ue");
  w.tensor("t\xc3", {32}, 0, 1, 4);
  GgufFile g = read_gguf(d.write("u.gguf", w.bytes()).string());
  REQUIRE(g.metadata.size() == 1);
  CHECK(g.metadata.begin().key() == "bad\xEF\xBF\xBDkey");
  CHECK(g.metadata.begin().value() == "val\xEF\xBF\xBDue");
  CHECK(g.tensors[0].name == "t\xEF\xBF\xBD");
  CHECK_NOTHROW(g.metadata.dump());
}

// Issue 26's reproducers: counts and sizes a header declares cost what qsel reads, never
// what the header claims, and never wrap.
TEST_CASE("gguf: a [2^31, 2^31] F32 tensor is refused, not sized 0 bytes with 4.6B parameters", "[artifact][gguf]") {
  test::TempDir d;
  test::GgufWriter w;
  w.tensor("token_embd.weight", {1ull << 31, 1ull << 31}, 0, 1, 4);
  std::string header = w.header_and_size().first;
  CHECK(gguf_error_of(write(d, header, "wrap.gguf")) ==
        d.path().string() + "/wrap.gguf: byte 53: tensor \"token_embd.weight\": dimensions [2147483648, 2147483648] hold more than 2^50 "
                            "elements, not a plausible tensor");
}

namespace {

// A GGUF file whose one string value declares `length` bytes: the header up to the
// string's bytes, then a hole (a sparse file), then a u32 key after it.
std::string sparse_string_file(const test::TempDir& d, std::uint64_t length) {
  std::string head = "GGUF" + le32(3) + le64(0) + le64(2) + test::gguf_str("general.name") + le32(8) + le64(length);
  std::string tail = test::gguf_str("after") + le32(4) + le32(7);
  auto path = d.path() / "sparse.gguf";
  {
    std::ofstream f(path, std::ios::binary);
    f << head;
    f.seekp(static_cast<std::streamoff>(head.size() + length));
    f << tail;
  }
  return path.string();
}

}  // namespace

TEST_CASE("gguf: a 1 GiB string value in a sparse file costs its kept head, not 2 GB and 17 s", "[artifact][gguf]") {
  test::TempDir d;
  GgufFile g = read_gguf(sparse_string_file(d, 1ull << 30));
  std::string name = g.metadata["general.name"].get<std::string>();
  CHECK(name == std::string(256, '\0') + "\u2026");  // the kept head, cut at 256 bytes and marked
  CHECK(g.metadata["after"] == 7);
}

TEST_CASE("gguf: strings in arrays past 2^24 together are refused at the count, not skipped one by one for 91 s", "[artifact][gguf]") {
  test::TempDir d;
  // 2^24 + 1 empty strings: 8 bytes each (their lengths), a sparse 128 MiB of zeros.
  std::uint64_t n = (1ull << 24) + 1;
  std::string head = "GGUF" + le32(3) + le64(0) + le64(1) + test::gguf_str("tokenizer.ggml.tokens") + le32(9) + le32(8) + le64(n);
  auto path = d.path() / "tokens.gguf";
  {
    std::ofstream f(path, std::ios::binary);
    f << head;
    f.seekp(static_cast<std::streamoff>(head.size() + n * 8 - 1));
    f << '\0';
  }
  CHECK(gguf_error_of(path.string()) == path.string() + ": byte 61: tokenizer.ggml.tokens: array of 16777217 strings; qsel reads at most 16777216 "
                                                   "string values per GGUF header (the largest vocabularies hold about 260,000 tokens)");
}

TEST_CASE("gguf: keys and tensor names past 16 MiB together are refused, and duplicates are found by hash, not by pairs", "[artifact][gguf]") {
  test::TempDir d;
  // 2,000 tensors whose names share a 1,000-byte prefix: the old pairwise check compared
  // 2 million pairs of long names; a set finds the one duplicate at the end.
  test::GgufWriter w;
  std::string prefix(1000, 'p');
  for (int i = 0; i < 2000; ++i) w.tensor(prefix + std::to_string(i), {32}, 0, 1, 4);
  w.tensor(prefix + "7", {32}, 0, 1, 4);
  CHECK(gguf_error_of(write(d, w.header_and_size().first + std::string(1 << 20, '\0'), "dup.gguf"))
            .find("tensor \"" + prefix + "7\" is listed twice") != std::string::npos);
  // 257 keys of 64 KiB (the longest the spec allows): past the 16 MiB budget at the last one.
  std::string keys = "GGUF" + le32(3) + le64(0) + le64(257);
  std::uint64_t last = 0;
  for (int i = 0; i < 257; ++i) {
    last = keys.size();
    keys += test::gguf_str(std::to_string(i) + std::string(65536 - std::to_string(i).size(), 'k')) + le32(4) + le32(1);
  }
  CHECK(gguf_error_of(write(d, keys, "keys.gguf")) == d.path().string() + "/keys.gguf: byte " + std::to_string(last) +
                                                    ": metadata keys and tensor names pass 16 MiB together; qsel reads at most that much of a header");
}
