#pragma once
/// Registers every secret of a loaded configuration with the log redactor, so a secret
/// that reaches a log line by any path (an error message, a URL) prints as "***".

#include "config/config.h"

namespace sqe::app {

/// Calls log::RegisterSecret for each non-empty SecretString field of `config`.
void RegisterConfigSecrets(const config::Config& config);

}  // namespace sqe::app
