// Catch2's main, after clearing what would make output depend on the caller's
// terminal: text fits COLUMNS when it is set (report/style.h), and every
// expected output in the tests is for the default 100 columns.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>

int main(int argc, char* argv[]) {
  unsetenv("COLUMNS");
  return Catch::Session().run(argc, argv);
}
