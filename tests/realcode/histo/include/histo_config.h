#pragma once
#define HISTO_BINS 16
