import { createFileRoute } from '@tanstack/react-router'
import { m } from '../../../../messages/paraglide/messages.js'
import { InfoPage } from './-components/InfoPage.tsx'

/**
 * /pages/ranking (public): the main parameters of each search order and how
 * to choose another (DSA Art. 27; docs/search.md, "How we order people").
 * The text follows api/search/search.ts's orders; change both together.
 */
export const Route = createFileRoute('/_default/pages/ranking')({
  component: () => <InfoPage title={m.pages_ranking_title()} body={m.pages_ranking_body()} />,
})
