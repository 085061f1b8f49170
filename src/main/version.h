#pragma once
/// The version every SQE binary reports (--version, Trino /v1/info), from CMake's
/// project(VERSION ...).

namespace sqe::app {

#ifndef SQE_VERSION
#define SQE_VERSION "0.0.0"
#endif
inline constexpr const char* kSqeVersion = SQE_VERSION;

}  // namespace sqe::app
