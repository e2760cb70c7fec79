# wasm32-wasi.cmake — CMake toolchain file for the clang wasm32-wasi build.
#
# Two setups, same flags:
#   * a real wasi-sdk, when WASI_SDK_PREFIX is given (-DWASI_SDK_PREFIX=… or
#     the environment): its clang, llvm-ar and share/wasi-sysroot;
#   * otherwise Debian's packages: clang-14 + lld-14 (wasm-ld-14), wasi-libc
#     (headers in /usr/include/wasm32-wasi, libs in /usr/lib/wasm32-wasi, which
#     Debian's clang finds without --sysroot) and libclang-rt-14-dev-wasm32
#     (compiler-rt builtins). A /usr/share/wasi-sysroot, as other distributions
#     and newer wasi-libc packages lay it out, is used as the sysroot if present.
#
# Usage: cmake -S . -B build/wasm-wasi -DCMAKE_TOOLCHAIN_FILE=cmake/wasm32-wasi.cmake

set(CMAKE_SYSTEM_NAME WASI)
set(CMAKE_SYSTEM_VERSION 1)
set(CMAKE_SYSTEM_PROCESSOR wasm32)
set(triple wasm32-wasi)

# Platform/WASI.cmake (CMake has none built in) lives next to this file.
list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}")
# try_compile projects re-read this file; hand them the same choice.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES WASI_SDK_PREFIX)

if(NOT WASI_SDK_PREFIX AND DEFINED ENV{WASI_SDK_PREFIX} AND NOT "$ENV{WASI_SDK_PREFIX}" STREQUAL "")
  # Cached, so CMake's automatic re-configure keeps the same compiler even
  # when the variable is no longer in the environment.
  set(WASI_SDK_PREFIX "$ENV{WASI_SDK_PREFIX}" CACHE PATH "wasi-sdk install prefix")
endif()

if(WASI_SDK_PREFIX)
  if(NOT EXISTS "${WASI_SDK_PREFIX}/bin/clang")
    message(FATAL_ERROR "WASI_SDK_PREFIX=${WASI_SDK_PREFIX} has no bin/clang")
  endif()
  set(CMAKE_C_COMPILER "${WASI_SDK_PREFIX}/bin/clang")
  set(CMAKE_AR "${WASI_SDK_PREFIX}/bin/llvm-ar" CACHE FILEPATH "" FORCE)
  set(CMAKE_RANLIB "${WASI_SDK_PREFIX}/bin/llvm-ranlib" CACHE FILEPATH "" FORCE)
  set(CMAKE_SYSROOT "${WASI_SDK_PREFIX}/share/wasi-sysroot")
  set(TSIFT_WASI_FLAVOUR "wasi-sdk ${WASI_SDK_PREFIX}")
else()
  find_program(TSIFT_WASI_CLANG NAMES clang-14 clang REQUIRED)
  find_program(TSIFT_WASI_AR NAMES llvm-ar-14 llvm-ar REQUIRED)
  find_program(TSIFT_WASI_RANLIB NAMES llvm-ranlib-14 llvm-ranlib REQUIRED)
  find_program(TSIFT_WASI_LD NAMES wasm-ld-14 wasm-ld)
  if(NOT TSIFT_WASI_LD)
    message(FATAL_ERROR "wasm-ld not found: apt-get install lld-14")
  endif()
  set(CMAKE_C_COMPILER "${TSIFT_WASI_CLANG}")
  # LTO objects are LLVM bitcode: only llvm-ar can index them for wasm-ld.
  set(CMAKE_AR "${TSIFT_WASI_AR}" CACHE FILEPATH "" FORCE)
  set(CMAKE_RANLIB "${TSIFT_WASI_RANLIB}" CACHE FILEPATH "" FORCE)
  if(EXISTS "/usr/share/wasi-sysroot/lib/wasm32-wasi/libc.a")
    set(CMAKE_SYSROOT "/usr/share/wasi-sysroot")
    set(TSIFT_WASI_FLAVOUR "clang + /usr/share/wasi-sysroot")
  elseif(EXISTS "/usr/lib/wasm32-wasi/libc.a")
    set(TSIFT_WASI_FLAVOUR "clang + Debian wasi-libc (/usr/lib/wasm32-wasi)")
  else()
    message(FATAL_ERROR "no wasi-libc found: apt-get install wasi-libc (or set WASI_SDK_PREFIX)")
  endif()
  # Debian's clang-14 finds the builtins in its resource dir by itself; check
  # it is there so a missing package fails here, not as odd link errors.
  execute_process(COMMAND "${TSIFT_WASI_CLANG}" --target=${triple} -print-libgcc-file-name
                  OUTPUT_VARIABLE _rt OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT EXISTS "${_rt}")
    message(FATAL_ERROR "compiler-rt builtins for wasm32 missing (${_rt}): apt-get install libclang-rt-14-dev-wasm32")
  endif()
endif()

set(CMAKE_C_COMPILER_TARGET ${triple})
set(CMAKE_EXECUTABLE_SUFFIX ".wasm")
# Checks compile a static library so they need neither main nor crt objects.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
