/* cp_path.h: whether two names reach one file, so that an output never overwrites an input. */
#ifndef CP_PATH_H
#define CP_PATH_H

/* 1 when path and other both name existing files and they are the same file (the same device
 * and inode, whatever links or relative parts lead there); 0 otherwise. */
int cp_path_same_file(const char *path, const char *other);

/* 1 when path, existing or not, names an entry directly inside the directory dir (its parent
 * directory is dir's device and inode); *name then points at path's last component. 0 when
 * not, or when either directory cannot be reached. */
int cp_path_in_directory(const char *path, const char *dir, const char **name);

#endif
