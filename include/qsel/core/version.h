// The version, from CMake's project(VERSION) (one place to bump it).
#pragma once

#ifndef QSEL_VERSION
#define QSEL_VERSION "0.0.0-unknown"
#endif

namespace qsel {
inline constexpr const char* kQselVersion = QSEL_VERSION;
}  // namespace qsel
