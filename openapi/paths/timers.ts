import { defineOperation } from '../operation.ts';
import { ErrorBody, IdParams, OkResponse } from '../schemas/common.ts';
import { Timer, TimerActived, TimerFiringList, TimerList, TimerWrite } from '../schemas/timers.ts';

const tag = 'timers';
/** Spec 03 §6: the catalogue has no TIMER pair, so timers use TOOLS_VIEW and TOOLS_EDIT. */
const view = { anyOf: ['TOOLS_VIEW', 'TOOLS_EDIT'] } as const;
const edit = { anyOf: ['TOOLS_EDIT'] } as const;
const notFound = { description: 'No timer with that id.', schema: ErrorBody };
const invalid = { description: 'A field breaks a rule, or a listed task is not a relay/encoding of taskType.', schema: ErrorBody };
const forbidden = { description: 'TOOLS_EDIT is missing, or the permission the action needs on the tasks (start/stop: VIEW_ON_OFF, restart: VIEW_RESTART, or EDIT of the task type).', schema: ErrorBody };

const FIRING =
  'A timer fires at its time in its time zone whether anyone is signed in or not, exactly once per due moment however many API processes run ' +
  '(the firing is claimed as a row of timer_firings, unique by timer and due moment, in the same transaction that changes the tasks). ' +
  'It switches the tasks on (START: those that are off) or off (STOP: those that are on), or orders a hard restart (RESTART: those that are on); ' +
  'their START/STOP/RESTART events name the timer as actor. A moment missed while no API process ran is not made up later.';

export const timerOperations = {
  listTimers: defineOperation({
    operationId: 'listTimers',
    method: 'get',
    path: '/api/timers',
    tag,
    summary: 'List the timers, sorted by id, with the server\'s time zone',
    description: FIRING,
    permission: view,
    responses: { 200: { description: 'Every timer.', schema: TimerList } },
  }),
  getTimer: defineOperation({
    operationId: 'getTimer',
    method: 'get',
    path: '/api/timers/{id}',
    tag,
    summary: 'Get a timer',
    permission: view,
    params: IdParams,
    responses: { 200: { description: 'The timer.', schema: Timer }, 404: notFound },
  }),
  createTimer: defineOperation({
    operationId: 'createTimer',
    method: 'post',
    path: '/api/timers',
    tag,
    summary: 'Create a timer (in the server\'s time zone)',
    description: 'A ONCE timer whose moment has passed is refused (400 naming body.date).',
    permission: edit,
    body: TimerWrite,
    responses: { 201: { description: 'Created.', schema: Timer }, 400: invalid, 403: forbidden },
  }),
  updateTimer: defineOperation({
    operationId: 'updateTimer',
    method: 'put',
    path: '/api/timers/{id}',
    tag,
    summary: 'Update a timer',
    permission: edit,
    params: IdParams,
    body: TimerWrite,
    responses: { 200: { description: 'Updated.', schema: Timer }, 400: invalid, 403: forbidden, 404: notFound },
  }),
  setTimerActived: defineOperation({
    operationId: 'setTimerActived',
    method: 'put',
    path: '/api/timers/{id}/actived',
    tag,
    summary: 'Enable or disable a timer',
    permission: edit,
    params: IdParams,
    body: TimerActived,
    responses: { 200: { description: 'Done.', schema: Timer }, 404: notFound },
  }),
  deleteTimer: defineOperation({
    operationId: 'deleteTimer',
    method: 'delete',
    path: '/api/timers/{id}',
    tag,
    summary: 'Delete a timer (its firing history goes with it)',
    permission: edit,
    params: IdParams,
    responses: { 200: { description: 'Deleted.', schema: OkResponse }, 404: notFound },
  }),
  listTimerFirings: defineOperation({
    operationId: 'listTimerFirings',
    method: 'get',
    path: '/api/timers/{id}/firings',
    tag,
    summary: 'The latest firings of a timer, newest first',
    permission: view,
    params: IdParams,
    responses: { 200: { description: 'At most 100 firings.', schema: TimerFiringList }, 404: notFound },
  }),
};
