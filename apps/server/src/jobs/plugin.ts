import fp from 'fastify-plugin';
import { startSender } from './boss.ts';
import { JobEvents } from './events.ts';
import { JobQueue } from './queue.ts';
import { abortRunningJobs, deleteUserUploads } from './validation-jobs.ts';

/**
 * Asynchronous jobs (docs/decisions/093): the queue to send through, the job events, and
 * clean-ups (a stopping process hands its running jobs back; a deleted account takes its uploads
 * along). Register after the workspace plugin; the routes are routes/jobs.ts and
 * api-v1/routes/jobs.ts.
 */
export default fp(
  async (app) => {
    const queue = new JobQueue(
      () => app.jobs?.boss ?? null,
      () => startSender(app),
    );
    app.decorate('jobQueue', queue);
    app.decorate('jobEvents', new JobEvents());
    app.accountDeletionHooks.push((user) => deleteUserUploads(app, user.id));
    app.addHook('preClose', async () => {
      abortRunningJobs(app);
    });
    app.addHook('onClose', async () => {
      await queue.close();
    });
  },
  { name: 'async-jobs', dependencies: ['workspace'] },
);
