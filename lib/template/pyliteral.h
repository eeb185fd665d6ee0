/* Python's ast.literal_eval over JSON values: numbers (int, float; 0x,
 * 0o, 0b, underscores), strings (with their escapes and prefixes), True,
 * False, None, lists, tuples (as lists) and dicts with string keys, as
 * far as 200 brackets deep (Python's tokenizer stops there). */
#ifndef TCPTUNE_PYLITERAL_H
#define TCPTUNE_PYLITERAL_H

#include <jansson.h>

/* The typed value of s, or the string s itself when it is not a Python
 * literal (a new reference either way). */
json_t	*py_literal_eval(const char *s);

#endif
