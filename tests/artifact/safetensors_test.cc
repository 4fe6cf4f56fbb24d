#include <catch2/catch.hpp>

#include "qsel/artifact/safetensors.h"
#include "qsel/core/errors.h"
#include "support/artifact_writer.h"
#include "support/fixtures.h"

using namespace qsel;
using nlohmann::json;
using test::le64;

namespace {

std::string safetensors_error_of(const std::string& path) {
  try {
    read_safetensors(path);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

json awq_layer() {
  return json::array({{{"name", "l.qweight"}, {"dtype", "I32"}, {"shape", {256, 64}}, {"bytes", 256 * 64 * 4}},
                      {{"name", "l.qzeros"}, {"dtype", "I32"}, {"shape", {2, 64}}, {"bytes", 2 * 64 * 4}},
                      {{"name", "l.scales"}, {"dtype", "F16"}, {"shape", {2, 512}}, {"bytes", 2 * 512 * 2}}});
}

std::string header_file(const test::TempDir& d, const std::string& header, const std::string& name, std::uint64_t data = 0) {
  return d.write(name, le64(header.size()) + header + std::string(data, '\0')).string();
}

}  // namespace

TEST_CASE("safetensors: the header reads back with dtypes, shapes and offsets", "[artifact][safetensors]") {
  test::TempDir d;
  auto path = d.write("m.safetensors", test::safetensors_bytes(awq_layer(), {{"format", "pt"}})).string();
  SafetensorsFile s = read_safetensors(path);
  REQUIRE(s.tensors.size() == 3);
  CHECK(s.metadata["format"] == "pt");
  CHECK(s.tensors[0].name == "l.qweight");
  CHECK(s.tensors[0].elements == 256 * 64);
  CHECK(s.tensors[0].bytes() == 256 * 64 * 4);
  CHECK(s.tensors[2].dtype == "F16");
  CHECK(s.notes.empty());
  CHECK(safetensors_dtype_bits("F8_E4M3") == 8);
  CHECK(safetensors_dtype_bits("F4") == 4);
  CHECK(safetensors_dtype_bits("Q4") == 0);
}

TEST_CASE("safetensors: hostile headers fail with the byte offset", "[artifact][safetensors]") {
  test::TempDir d;
  std::string p = d.path().string() + "/";
  CHECK(safetensors_error_of(d.write("short.safetensors", "abc").string()) == p + "short.safetensors: byte 0: expected the header length (8 bytes), the file ends at byte 3");
  CHECK(safetensors_error_of(d.write("huge.safetensors", le64(1ull << 40) + "{}").string()) ==
        p + "huge.safetensors: byte 0: header length 1099511627776 is over the format's limit of 100000000 bytes");
  CHECK(safetensors_error_of(d.write("long.safetensors", le64(1000) + "{}").string()) == p + "long.safetensors: byte 0: header length 1000 is larger than the 2 bytes after it");
  CHECK(safetensors_error_of(header_file(d, "[1]", "arr.safetensors")) == p + "arr.safetensors: byte 8: the header must start with '{'");
  CHECK(safetensors_error_of(header_file(d, "{\"a\": ", "json.safetensors")).rfind(p + "json.safetensors: byte ", 0) == 0);
  CHECK(safetensors_error_of(header_file(d, "{\"a\": \"\xff\"}", "utf8.safetensors")) == p + "utf8.safetensors: byte 15: the header is not valid UTF-8");
  CHECK(safetensors_error_of(header_file(d, "{\"a\":" + std::string(40, '[') + std::string(40, ']') + "}", "deep.safetensors")) ==
        p + "deep.safetensors: byte 8: the header nests deeper than 16 levels");
  CHECK(safetensors_error_of(header_file(d, R"({"t": {"dtype": "F16", "shape": [4], "data_offsets": [0, 100]}})", "past.safetensors", 8))
            .find("tensor \"t\": data_offsets [0, 100] are outside the 8 bytes of data") != std::string::npos);
  CHECK(safetensors_error_of(header_file(d, R"({"t": {"dtype": "F16", "shape": [4], "data_offsets": [0, 6]}})", "size.safetensors", 8))
            .find("tensor \"t\": 6 bytes for 4 F16 values (8 expected)") != std::string::npos);
  CHECK(safetensors_error_of(header_file(d, R"({"t": {"dtype": "F16", "shape": [-4], "data_offsets": [0, 8]}})", "neg.safetensors", 8))
            .find("shape is not a list of plausible sizes") != std::string::npos);
  CHECK(safetensors_error_of(header_file(d, R"({"t": {"dtype": "F16", "shape": [4]}})", "noff.safetensors", 8)).find("expected {\"dtype\"") != std::string::npos);
  CHECK(safetensors_error_of(header_file(d, R"({"a": {"dtype": "F16", "shape": [4], "data_offsets": [0, 8]}, "b": {"dtype": "F16", "shape": [4], "data_offsets": [4, 12]}})",
                             "overlap.safetensors", 12))
            .find("tensors \"a\" and \"b\" overlap") != std::string::npos);
  CHECK(safetensors_error_of(header_file(d, R"({"__metadata__": {"a": 1}})", "meta.safetensors")).find("__metadata__ \"a\" must be a string") != std::string::npos);
}

TEST_CASE("safetensors: an unknown dtype is noted, a hole is noted, and the file still reads", "[artifact][safetensors]") {
  test::TempDir d;
  auto path = header_file(d, R"({"a": {"dtype": "Q9", "shape": [4], "data_offsets": [8, 16]}})", "odd.safetensors", 16);
  SafetensorsFile s = read_safetensors(path);
  REQUIRE(s.notes.size() == 2);
  CHECK(s.notes[0] == "tensor \"a\" has dtype Q9, which qsel does not know; its size is taken from its offsets");
  CHECK(s.notes[1] == "8 bytes unaccounted for before tensor \"a\"");
}

// Issue 26: the header is read as events into one record per tensor (never as a
// JSON tree: 100 MB took 3.2 GB), sizes are checked without wrapping.
TEST_CASE("safetensors: a tensor named twice, a shape past 2^50 elements, a wrapping size are refused", "[artifact][safetensors]") {
  test::TempDir d;
  std::string p = d.path().string() + "/";
  CHECK(safetensors_error_of(header_file(d, R"({"t": {"dtype": "F16", "shape": [4], "data_offsets": [0, 8]}, "t": {"dtype": "F16", "shape": [4], "data_offsets": [0, 8]}})",
                             "twice.safetensors", 8)) == p + "twice.safetensors: byte 8: tensor \"t\" is listed twice");
  CHECK(safetensors_error_of(header_file(d, R"({"t": {"dtype": "F32", "shape": [2147483648, 2147483648], "data_offsets": [0, 0]}})", "wrap.safetensors")) ==
        p + "wrap.safetensors: byte 8: tensor \"t\": shape is not a list of plausible sizes");
  CHECK(safetensors_error_of(header_file(d, R"({"t": {"dtype": "F16", "shape": [[4]], "data_offsets": [0, 8]}})", "nested.safetensors", 8)) ==
        p + "nested.safetensors: byte 8: tensor \"t\": shape is not a list of plausible sizes");
  CHECK(safetensors_error_of(header_file(d, R"({"t": 5})", "scalar.safetensors")) ==
        p + "scalar.safetensors: byte 8: tensor \"t\": expected {\"dtype\": string, \"shape\": [ints], \"data_offsets\": [begin, end]}");
  CHECK(safetensors_error_of(header_file(d, R"({"__metadata__": [1]})", "metaarr.safetensors")) == p + "metaarr.safetensors: byte 8: __metadata__ must be an object of strings");
  CHECK(safetensors_error_of(header_file(d, R"({"__metadata__": {"a": {"b": "c"}}})", "metaobj.safetensors")) ==
        p + "metaobj.safetensors: byte 8: __metadata__ \"a\" must be a string");
  CHECK(safetensors_error_of(header_file(d, R"({"t": {"dtype": "F16", "shape": [1e400], "data_offsets": [0, 8]}})", "inf.safetensors", 8)) ==
        p + "inf.safetensors: byte 8: the header holds a number beyond the double range");
  // unknown fields, nested as deep as the format allows, are skipped
  SafetensorsFile s = read_safetensors(header_file(
      d, R"({"b": {"dtype": "F16", "shape": [4], "data_offsets": [8, 16], "x": {"y": [[1, {"z": []}]]}}, "a": {"dtype": "F16", "shape": [4], "data_offsets": [0, 8]}})",
      "extra.safetensors", 16));
  REQUIRE(s.tensors.size() == 2);
  CHECK(s.tensors[0].name == "a");  // name order, as before
  CHECK(s.tensors[1].bytes() == 8);
}

TEST_CASE("safetensors: a 100 MB header is read in one pass without a JSON tree", "[artifact][safetensors]") {
#ifdef QSEL_SANITIZED_BUILD
  SUCCEED("a memory budget: checked in the Release run");
  return;
#endif
  test::TempDir d;
  std::string header = R"({"__metadata__": {"x": ")" + std::string(99000000, 'a') + R"("}, "t": {"dtype": "F16", "shape": [4], "data_offsets": [0, 8]}})";
  SafetensorsFile s = read_safetensors(header_file(d, header, "big.safetensors", 8));
  CHECK(s.tensors.size() == 1);
  CHECK(s.metadata["x"].get_ref<const std::string&>().size() == 99000000);
}
