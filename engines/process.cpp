#include "engines/process.h"
