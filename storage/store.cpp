#include "storage/store.h"
