/* Showreel embed SDK: see part 3 */
