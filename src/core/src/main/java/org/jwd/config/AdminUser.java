package org.jwd.config;

/**
 * One user of the administration: {@code admin.users.<name>.password_hash} and {@code .role}, or the administrator
 * of {@code admin.user} and {@code admin.password_hash} (role {@link AdminRole#ADMIN}).
 */
public record AdminUser(String name, PasswordHash passwordHash, AdminRole role) {
    @Override
    public String toString() {
        return name + " (" + role.key() + ")";
    }
}
