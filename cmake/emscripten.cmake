# emscripten.cmake — toolchain wrapper for the Emscripten build.
#
# Loads Emscripten's own Platform/Emscripten.cmake and fixes what Debian's
# packaging (emscripten 3.1.6) needs at every emcc call, not only at configure
# time, so `cmake --build` works from a bare shell:
#   * NODE_PATH must reach /usr/share/nodejs (emcc's JS passes need acorn);
#   * EM_CACHE, when TSIFT_EM_CACHE is set, points at a writable cache.
# Both are injected as compiler/linker launchers (`cmake -E env …`).
#
# Emscripten root: -DEMSCRIPTEN_ROOT_PATH, $EMSCRIPTEN, `em-config`, or
# /usr/share/emscripten (Debian).
#
# Usage: cmake -S . -B build/wasm-emcc -DCMAKE_TOOLCHAIN_FILE=cmake/emscripten.cmake

list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES EMSCRIPTEN_ROOT_PATH TSIFT_EM_CACHE)

set(_tsift_env "")
if(EXISTS "/usr/share/nodejs/acorn")
  if(DEFINED ENV{NODE_PATH} AND NOT "$ENV{NODE_PATH}" MATCHES "/usr/share/nodejs")
    set(ENV{NODE_PATH} "/usr/share/nodejs:$ENV{NODE_PATH}")
  elseif(NOT DEFINED ENV{NODE_PATH} OR "$ENV{NODE_PATH}" STREQUAL "")
    set(ENV{NODE_PATH} "/usr/share/nodejs")
  endif()
  list(APPEND _tsift_env "NODE_PATH=$ENV{NODE_PATH}")
endif()
if(TSIFT_EM_CACHE)
  set(ENV{EM_CACHE} "${TSIFT_EM_CACHE}")
  list(APPEND _tsift_env "EM_CACHE=${TSIFT_EM_CACHE}")
endif()

if(NOT EMSCRIPTEN_ROOT_PATH AND DEFINED ENV{EMSCRIPTEN} AND NOT "$ENV{EMSCRIPTEN}" STREQUAL "")
  set(EMSCRIPTEN_ROOT_PATH "$ENV{EMSCRIPTEN}")
endif()
if(NOT EMSCRIPTEN_ROOT_PATH)
  find_program(_tsift_emconfig NAMES em-config)
  if(_tsift_emconfig)
    execute_process(COMMAND "${_tsift_emconfig}" EMSCRIPTEN_ROOT
                    OUTPUT_VARIABLE _root OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE _rc ERROR_QUIET)
    if(_rc EQUAL 0 AND EXISTS "${_root}/cmake/Modules/Platform/Emscripten.cmake")
      set(EMSCRIPTEN_ROOT_PATH "${_root}")
    endif()
  endif()
endif()
if(NOT EMSCRIPTEN_ROOT_PATH AND EXISTS "/usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake")
  set(EMSCRIPTEN_ROOT_PATH "/usr/share/emscripten")
endif()
if(NOT EMSCRIPTEN_ROOT_PATH)
  message(FATAL_ERROR "Emscripten not found: apt-get install emscripten (or set EMSCRIPTEN_ROOT_PATH)")
endif()

include("${EMSCRIPTEN_ROOT_PATH}/cmake/Modules/Platform/Emscripten.cmake")

# Emscripten.cmake defaults to .js (JS glue + wasm); toolsift wants only the
# standalone module.
set(CMAKE_EXECUTABLE_SUFFIX ".wasm")

if(_tsift_env)
  set(CMAKE_C_COMPILER_LAUNCHER "${CMAKE_COMMAND};-E;env;${_tsift_env}")
  set(CMAKE_C_LINKER_LAUNCHER "${CMAKE_COMMAND};-E;env;${_tsift_env}")
endif()
