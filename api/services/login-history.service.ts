import type { LoginHistoryRepository } from '../repositories/login-history.repository.ts';

export class LoginHistoryService {
  constructor(private readonly history: LoginHistoryRepository) {}

  async list(query: { search?: string; page: number; size: number; order: 'asc' | 'desc' }) {
    const { rows, total } = await this.history.list({ search: query.search?.trim() || undefined, order: query.order, offset: (query.page - 1) * query.size, limit: query.size });
    return {
      items: rows.map((row) => ({
        id: Number(row.id),
        createdAt: row.created_at.toISOString(),
        username: row.username,
        ip: row.ip,
        location: row.location,
        userAgent: row.user_agent,
        success: row.success,
        reason: row.reason,
      })),
      total,
      page: query.page,
      size: query.size,
    };
  }
}
