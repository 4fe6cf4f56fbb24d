// A main for the fuzz harnesses when libFuzzer is not linked (-DQSEL_FUZZ=OFF
// under the sanitizers): each argument is a file, or a folder of files, fed once
// to LLVMFuzzerTestOneInput. CI replays the seed corpora this way under ASan and
// UBSan without compiling the whole library with coverage instrumentation;
// scripts/fuzz.sh with a libFuzzer build does the fuzzing. Options ("-runs=0") are ignored.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

void run(const std::filesystem::path& p, int& n) {
  std::ifstream in(p, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() > (1u << 20)) bytes.resize(1u << 20);  // libFuzzer's -max_len is 65536; seeds stay small
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  ++n;
}

}  // namespace

int main(int argc, char** argv) {
  int n = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.empty() || a[0] == '-') continue;
    std::error_code ec;
    if (std::filesystem::is_directory(a, ec)) {
      std::vector<std::filesystem::path> files;
      for (const auto& e : std::filesystem::directory_iterator(a, ec))
        if (e.is_regular_file(ec)) files.push_back(e.path());
      for (const auto& f : files) run(f, n);
    } else {
      run(a, n);
    }
  }
  std::printf("replayed %d input(s)\n", n);
  return 0;
}
