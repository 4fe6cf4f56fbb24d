// Links the corpus blob produced at build time (QSEL_CORPUS_BLOB) into the binary.
#include <string_view>

#include "qsel/loader/corpus_blob.h"

#ifndef QSEL_CORPUS_BLOB
#error "QSEL_CORPUS_BLOB must name the generated corpus blob"
#endif

#define QSEL_STR2(x) #x
#define QSEL_STR(x) QSEL_STR2(x)

__asm__(".section .rodata\n"
        ".balign 16\n"
        ".global qsel_corpus_blob_begin\n"
        "qsel_corpus_blob_begin:\n"
        ".incbin \"" QSEL_STR(QSEL_CORPUS_BLOB) "\"\n"
        ".global qsel_corpus_blob_end\n"
        "qsel_corpus_blob_end:\n"
        ".previous\n");

extern "C" const char qsel_corpus_blob_begin[];
extern "C" const char qsel_corpus_blob_end[];

namespace qsel {

std::string_view embedded_blob() {
  return {qsel_corpus_blob_begin, static_cast<std::size_t>(qsel_corpus_blob_end - qsel_corpus_blob_begin)};
}

}  // namespace qsel
