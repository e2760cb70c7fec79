# WASI.cmake — minimal platform description for CMAKE_SYSTEM_NAME WASI
# (CMake ships none; wasi-sdk ships the same two lines).
set(WASI 1)
set(CMAKE_EXECUTABLE_SUFFIX ".wasm")
