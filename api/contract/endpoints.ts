// The endpoint table: every call of the API by name, with its method, path,
// input schemas and response schema. The server's validators and the sync
// worker's `call(name)` both take an entry from here, so no call site pairs a
// path string with a schema by hand (a renamed path or a changed response is
// one edit, and a mismatch is a type error). Paths keep the spec's names
// (spec §7). Zod only, like the rest of the contract.
import type { z } from 'zod'
import {
  AccountExport,
  AccountUser,
  ActivateQuery,
  ActivateStatusResponse,
  DeleteAccountRequest,
  DeleteAccountResponse,
  DevMailResponse,
  GeocodeQuery,
  GeocodeResponse,
  InterestsResponse,
  LoginUnlockRequest,
  LoginUnlockResponse,
  MailChangeDoRequest,
  MailChangeDoResponse,
  MailChangePending,
  MailChangeRequest,
  MailChangeResponse,
  PhotoPrivacyRequest,
  PhotoUnlocksResponse,
  ProfileFieldsResponse,
  ProfileImageIdRequest,
  ProfileImagesResponse,
  PushSubscribeRequest,
  PushSubscribeResponse,
  RegionsResponse,
  ResendActivationResponse,
  ResetPasswordDoRequest,
  ResetPasswordDoResponse,
  ResetPasswordRequest,
  ResetPasswordResponse,
  SignupRequest,
  SignupResponse,
  UnlockPhotoRequest,
  UnlockPhotoResponse,
  UserUpdateRequest,
  ValidateEmailQuery,
  ValidateEmailResponse,
} from './account.ts'
import {
  AgeRequestQuery,
  AgeRequestState,
  AgeStartRequest,
  AgeStartResponse,
  AgeStatus,
  AgeTestWalletForm,
  AgeTestWalletQuery,
  AgeWalletForm,
} from './age.ts'
import { LoginRequest, LogoutResponse } from './auth.ts'
import {
  CamRedirectQuery,
  CamsQuery,
  CamsResponse,
  DemoProviderQuery,
  ResellPartnerQuery,
} from './cams.ts'
import { ChatsResponse } from './chats.ts'
import { GiftsResponse } from './gifts.ts'
import { HealthResponse, ReadyResponse } from './health.ts'
import {
  LikeRequest,
  LikeResponse,
  LikeSeenRequest,
  LikeSeenResponse,
  LikesQuery,
  LikesResponse,
} from './likes.ts'
import { ChatStartQuery, ChatStartResponse, ProfileQuery, ProfileResponse } from './members.ts'
import {
  BlockRequest,
  BlockResponse,
  ChatDeleteResponse,
  ChatReadResponse,
  ChatRequest,
  CreditsResponse,
  MessagesQuery,
  MessagesResponse,
  PHOTO_SEND_PATH,
  VOICE_SEND_PATH,
  ReportRequest,
  ReportResponse,
  SendGiftRequest,
  SendMessageRequest,
  SendMessageResponse,
} from './messages.ts'
import { operatorEndpoints } from './operator/index.ts'
import {
  CreditHistoryResponse,
  DiscountQuery,
  DiscountResponse,
  LocalCheckoutForm,
  LocalCheckoutQuery,
  OrderRequest,
  OrderResponse,
  PackagesQuery,
  PackagesResponse,
  PurchasesResponse,
  RepeatOrderRequest,
  Transaction,
  TransactionQuery,
  WebhookForm,
  WithdrawalConfirmRequest,
  WithdrawalLinkPurchase,
  WithdrawalLinkQuery,
  WithdrawalLinkRequest,
  WithdrawalLinkResponse,
  WithdrawRequest,
  WithdrawResponse,
} from './payments.ts'
import {
  PrivacySettings,
  PrivacyUpdate,
  TypingRequest,
  TypingResponse,
  VisitorsResponse,
  VisitorsSeenResponse,
} from './presence.ts'
import { User } from './profile.ts'
import {
  PushPreferences,
  PushPreferencesUpdate,
  PushTestResponse,
  PushUnsubscribeRequest,
  PushUnsubscribeResponse,
  PushVisibilityQuery,
} from './push.ts'
import type { Capability } from './rules/staff.ts'
import { SearchQuery, SearchResponse, ShowcaseResponse } from './search.ts'
import { EndSessionRequest, SessionsResponse } from './sessions.ts'
import { CompanyInfo, Settings } from './settings.ts'
import {
  AppealRequest,
  AppealResponse,
  ComplaintRequest,
  ComplaintResponse,
  LanderMembersQuery,
  LanderMembersResponse,
  LanderVisitRequest,
  StatementQuery,
  StatementResponse,
} from './traffic.ts'
import { VerificationStartRequest, VerificationStatus } from './verification.ts'

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

export interface EndpointDef {
  method: Method
  /**
   * The full path, `/api/...` (spec §7); the probes of load balancers and
   * orchestrators (`healthz`, `readyz`) sit at the root, where they expect them.
   */
  path: string
  /** Query parameters the caller chooses. */
  query?: z.ZodType
  /**
   * Query parameters that select this endpoint among others on the same
   * method and path (`POST /api/user.php?new=1` is the sign-up).
   */
  fixedQuery?: Record<string, string>
  /** JSON body (or multipart, for uploads). */
  body?: z.ZodType
  /** The JSON answer on success; null where the answer is a redirect or an empty body. */
  response: z.ZodType | null
  /** Multipart form data instead of JSON (picture uploads). */
  multipart?: true
  /** An HTML form post (application/x-www-form-urlencoded): the payment provider's webhook and the local checkout. */
  form?: true
  /**
   * A console endpoint's permission (api/contract/rules/staff.ts): the staff
   * gate refuses staff whose roles lack it with 403, before the route runs.
   * Console endpoints without one are open to every signed-in staff member.
   */
  capability?: Capability
  /**
   * A GET that changes something (ends a session, activates, counts a click
   * or an export). HTTP answers HEAD with the GET's handler; for these a HEAD
   * answers 405 and runs nothing (api/app.ts), so a link checker or a mail
   * scanner's HEAD never acts for the member.
   */
  effects?: true
}

export const endpoints = {
  // Session (spec §7)
  login: { method: 'POST', path: '/api/login.php', body: LoginRequest, response: User },
  /** The link mailed when a login was refused with 429: clears the account's login limits. */
  loginUnlock: {
    method: 'POST',
    path: '/api/login_unlock.php',
    body: LoginUnlockRequest,
    response: LoginUnlockResponse,
  },
  logout: { method: 'GET', path: '/api/logout.php', response: LogoutResponse, effects: true },
  user: { method: 'GET', path: '/api/user.php', response: User },
  account: { method: 'GET', path: '/api/user.php', response: AccountUser },
  /** The member's signed-in devices (docs/security.md: signed-in devices). */
  sessions: { method: 'GET', path: '/api/sessions.php', response: SessionsResponse },
  /** End one of them; answers the list left. */
  endSession: {
    method: 'DELETE',
    path: '/api/sessions.php',
    body: EndSessionRequest,
    response: SessionsResponse,
  },
  /** "Log out everywhere else": every session but the current one. */
  endOtherSessions: {
    method: 'DELETE',
    path: '/api/sessions.php',
    fixedQuery: { others: '1' },
    response: SessionsResponse,
  },
  /** Spec §7: an empty JSON body, sent as a beacon; answers 204. */
  pageHidden: { method: 'POST', path: '/api/page-hidden.php', response: null },

  // Account (spec §4, §5, §7)
  signup: {
    method: 'POST',
    path: '/api/user.php',
    fixedQuery: { new: '1' },
    body: SignupRequest,
    response: SignupResponse,
  },
  updateAccount: {
    method: 'PUT',
    path: '/api/user.php',
    body: UserUpdateRequest,
    response: AccountUser,
  },
  deleteAccount: {
    method: 'DELETE',
    path: '/api/user.php',
    body: DeleteAccountRequest,
    response: DeleteAccountResponse,
  },
  /** The member's data as a JSON file (an attachment); a few a day. */
  accountExport: {
    method: 'GET',
    path: '/api/account_export.php',
    response: AccountExport,
    effects: true,
  },
  pushSubscribe: {
    method: 'POST',
    path: '/api/user.php',
    fixedQuery: { push: '1' },
    body: PushSubscribeRequest,
    response: PushSubscribeResponse,
  },
  // Push on this site (api/contract/push.ts; the spec is silent)
  pushPreferences: { method: 'GET', path: '/api/push.php', response: PushPreferences },
  pushPreferencesUpdate: {
    method: 'PUT',
    path: '/api/push.php',
    body: PushPreferencesUpdate,
    response: PushPreferences,
  },
  pushUnsubscribe: {
    method: 'DELETE',
    path: '/api/push.php',
    body: PushUnsubscribeRequest,
    response: PushUnsubscribeResponse,
  },
  pushTest: {
    method: 'POST',
    path: '/api/push-test.php',
    response: PushTestResponse,
  },
  pushVisibility: {
    method: 'POST',
    path: '/api/push-visibility.php',
    query: PushVisibilityQuery,
    response: null,
  },
  validateEmail: {
    method: 'GET',
    path: '/api/validate_email.php',
    query: ValidateEmailQuery,
    response: ValidateEmailResponse,
  },
  /** With a token: the mailed link, which activates and redirects (no JSON). */
  activate: {
    method: 'GET',
    path: '/api/activate.php',
    query: ActivateQuery,
    response: null,
    effects: true,
  },
  activationStatus: { method: 'GET', path: '/api/activate.php', response: ActivateStatusResponse },
  resendActivation: {
    method: 'POST',
    path: '/api/activate.php',
    response: ResendActivationResponse,
  },
  requestPasswordReset: {
    method: 'POST',
    path: '/api/reset_password.php',
    body: ResetPasswordRequest,
    response: ResetPasswordResponse,
  },
  resetPassword: {
    method: 'POST',
    path: '/api/reset_password.php',
    fixedQuery: { do: '1' },
    body: ResetPasswordDoRequest,
    response: ResetPasswordDoResponse,
  },
  requestMailChange: {
    method: 'POST',
    path: '/api/mail_change.php',
    body: MailChangeRequest,
    response: MailChangeResponse,
  },
  confirmMailChange: {
    method: 'POST',
    path: '/api/mail_change.php',
    fixedQuery: { do: '1' },
    body: MailChangeDoRequest,
    response: MailChangeDoResponse,
  },
  pendingMailChange: { method: 'GET', path: '/api/mail_change.php', response: MailChangePending },
  cancelMailChange: {
    method: 'DELETE',
    path: '/api/mail_change.php',
    response: MailChangePending,
  },
  /** Photo verification (api/verification/): the member's state, a start, the selfie. */
  verification: { method: 'GET', path: '/api/verification.php', response: VerificationStatus },
  startVerification: {
    method: 'POST',
    path: '/api/verification.php',
    body: VerificationStartRequest,
    response: VerificationStatus,
  },
  uploadSelfie: {
    method: 'POST',
    path: '/api/verification_selfie.php',
    multipart: true,
    response: VerificationStatus,
  },
  /** Withdraws the consent to face matching: the kept face descriptor is deleted. */
  withdrawFaceConsent: {
    method: 'DELETE',
    path: '/api/verification_face.php',
    response: VerificationStatus,
  },
  images: { method: 'GET', path: '/api/profileimage.php', response: ProfileImagesResponse },
  uploadImages: {
    method: 'POST',
    path: '/api/profileimage.php',
    multipart: true,
    response: ProfileImagesResponse,
  },
  setMainImage: {
    method: 'PUT',
    path: '/api/profileimage.php',
    body: ProfileImageIdRequest,
    response: ProfileImagesResponse,
  },
  deleteImage: {
    method: 'DELETE',
    path: '/api/profileimage.php',
    body: ProfileImageIdRequest,
    response: ProfileImagesResponse,
  },
  setPhotoPrivate: {
    method: 'PUT',
    path: '/api/privatephoto.php',
    body: PhotoPrivacyRequest,
    response: ProfileImagesResponse,
  },
  unlockPhoto: {
    method: 'POST',
    path: '/api/photounlock.php',
    body: UnlockPhotoRequest,
    response: UnlockPhotoResponse,
  },
  photoUnlocks: { method: 'GET', path: '/api/photounlock.php', response: PhotoUnlocksResponse },
  devMails: { method: 'GET', path: '/api/_dev/mail.php', response: DevMailResponse },

  // Reference data
  settings: { method: 'GET', path: '/api/settings.php', response: Settings },
  companyInfo: { method: 'GET', path: '/api/companyinfo.php', response: CompanyInfo },
  regions: { method: 'GET', path: '/api/regions.php', response: RegionsResponse },
  interests: { method: 'GET', path: '/api/interests.php', response: InterestsResponse },
  profileFields: {
    method: 'GET',
    path: '/api/profile_fields.php',
    response: ProfileFieldsResponse,
  },
  geocode: {
    method: 'GET',
    path: '/api/geocode.php',
    query: GeocodeQuery,
    response: GeocodeResponse,
  },

  // Members (spec §6, §7)
  search: { method: 'GET', path: '/api/search.php', query: SearchQuery, response: SearchResponse },
  showcase: { method: 'GET', path: '/api/showcase.php', response: ShowcaseResponse },
  profile: {
    method: 'GET',
    path: '/api/profile.php',
    query: ProfileQuery,
    response: ProfileResponse,
  },
  likes: { method: 'GET', path: '/api/likes.php', query: LikesQuery, response: LikesResponse },
  like: { method: 'POST', path: '/api/likes.php', body: LikeRequest, response: LikeResponse },
  unlike: { method: 'DELETE', path: '/api/likes.php', body: LikeRequest, response: LikeResponse },
  likeSeen: {
    method: 'PUT',
    path: '/api/likes.php',
    body: LikeSeenRequest,
    response: LikeSeenResponse,
  },
  chats: { method: 'GET', path: '/api/chats.php', response: ChatsResponse },
  chatStart: {
    method: 'GET',
    path: '/api/chat.php',
    query: ChatStartQuery,
    response: ChatStartResponse,
  },

  // Messages paid with credits (spec §1, §7)
  messages: {
    method: 'GET',
    path: '/api/messages.php',
    query: MessagesQuery,
    response: MessagesResponse,
  },
  sendMessage: {
    method: 'POST',
    path: '/api/messages.php',
    body: SendMessageRequest,
    response: SendMessageResponse,
  },
  /**
   * A photo message (docs/messages-and-credits.md, "Photos in chats"):
   * multipart `conversation`, `client_id`, optional caption `text`, one `file`.
   */
  sendPhoto: {
    method: 'POST',
    path: PHOTO_SEND_PATH,
    multipart: true,
    response: SendMessageResponse,
  },
  sendVoice: {
    method: 'POST',
    path: VOICE_SEND_PATH,
    multipart: true,
    response: SendMessageResponse,
  },
  sendGift: {
    method: 'POST',
    path: '/api/message-gift.php',
    body: SendGiftRequest,
    response: SendMessageResponse,
  },
  chatRead: { method: 'PUT', path: '/api/chat.php', body: ChatRequest, response: ChatReadResponse },
  chatDelete: {
    method: 'DELETE',
    path: '/api/chat.php',
    body: ChatRequest,
    response: ChatDeleteResponse,
  },
  credits: { method: 'GET', path: '/api/credits.php', response: CreditsResponse },
  /** The member is typing: a `typing` poke to the other member, never stored (docs/live.md). */
  typing: {
    method: 'POST',
    path: '/api/typing.php',
    body: TypingRequest,
    response: TypingResponse,
  },
  /** Who opened the member's profile, newest first (docs/live.md). */
  visitors: { method: 'GET', path: '/api/visitors.php', response: VisitorsResponse },
  /** The visitors list was seen: none is new any more. */
  visitorsSeen: { method: 'PUT', path: '/api/visitors.php', response: VisitorsSeenResponse },
  /** Read receipts, browsing invisibly, hiding online, a push for visits. */
  privacy: { method: 'GET', path: '/api/privacy.php', response: PrivacySettings },
  privacyUpdate: {
    method: 'PUT',
    path: '/api/privacy.php',
    body: PrivacyUpdate,
    response: PrivacySettings,
  },
  /** Server-Sent Events: pokes to pull (not JSON). */
  events: { method: 'GET', path: '/api/events.php', response: null },
  block: { method: 'POST', path: '/api/blocks.php', body: BlockRequest, response: BlockResponse },
  unblock: {
    method: 'DELETE',
    path: '/api/blocks.php',
    body: BlockRequest,
    response: BlockResponse,
  },
  report: {
    method: 'POST',
    path: '/api/reports.php',
    body: ReportRequest,
    response: ReportResponse,
  },
  // Visitors' pages (spec §2 landers, member landing pages, complaints)
  /** Public: the cards of members a lander shows; never private data. */
  landerMembers: {
    method: 'GET',
    path: '/api/lander_members.php',
    query: LanderMembersQuery,
    response: LanderMembersResponse,
  },
  /** Public: a visit to a lander or member landing page, counted for the traffic report; 204. */
  landerVisit: {
    method: 'POST',
    path: '/api/lander_visit.php',
    body: LanderVisitRequest,
    response: null,
  },
  /** Age assurance (api/age/): what this site asks of the member, and whether they have done it. */
  ageStatus: { method: 'GET', path: '/api/age_assurance.php', response: AgeStatus },
  /** Start a check: the OpenID4VP request link for the member's age verification app. */
  ageStart: {
    method: 'POST',
    path: '/api/age_assurance.php',
    body: AgeStartRequest,
    response: AgeStartResponse,
  },
  /** The state of one check, polled by the /age page until the wallet has answered. */
  ageRequest: {
    method: 'GET',
    path: '/api/age_request.php',
    query: AgeRequestQuery,
    response: AgeRequestState,
  },
  /**
   * Public: the signed request object (a JWT, `oauth-authz-req+jwt`) the
   * wallet fetches by `request_uri`; only while the request is pending.
   */
  ageRequestObject: {
    method: 'GET',
    path: '/api/age_request_object.php',
    query: AgeRequestQuery,
    response: null,
  },
  /** Public: the wallet's answer (direct_post, form-encoded) to request `?request=`. */
  ageWalletResponse: {
    method: 'POST',
    path: '/api/age_response.php',
    query: AgeRequestQuery,
    body: AgeWalletForm,
    form: true,
    response: null,
  },
  /**
   * The built-in test wallet's page (HTML, api/age/test-wallet.ts), only on a
   * demo start or with AGE_TEST_WALLET=on; the member's own request only.
   */
  ageTestWallet: {
    method: 'GET',
    path: '/api/age_test_wallet.php',
    query: AgeTestWalletQuery,
    response: null,
  },
  /** The test wallet's buttons: it answers the request as a wallet would, then back to the site. */
  ageTestWalletAction: {
    method: 'POST',
    path: '/api/age_test_wallet.php',
    body: AgeTestWalletForm,
    form: true,
    response: null,
  },
  /** Public: an EU notice-and-action complaint or an appeal; receipted by mail. */
  complaint: {
    method: 'POST',
    path: '/api/complaints.php',
    body: ComplaintRequest,
    response: ComplaintResponse,
  },
  /** Public with the token of a statement-of-reasons mail: the decision, why, and its appeal. */
  statement: {
    method: 'GET',
    path: '/api/statement.php',
    query: StatementQuery,
    response: StatementResponse,
  },
  /** Public with the same token (works while suspended): appeal the decision; another moderator decides. */
  appeal: {
    method: 'POST',
    path: '/api/appeal.php',
    body: AppealRequest,
    response: AppealResponse,
  },
  /** Spec §2 developer panel: set credits to zero (development configuration only). */
  devZeroCredits: { method: 'POST', path: '/api/_dev/credits.php', response: CreditsResponse },

  /** The site's gift catalogue, what each costs (public: prices are shown before one buys). */
  gifts: { method: 'GET', path: '/api/gifts.php', response: GiftsResponse },

  // Buying credits (spec §2, §3, §7)
  packages: {
    method: 'GET',
    path: '/api/packages.php',
    query: PackagesQuery,
    response: PackagesResponse,
  },
  discountCode: {
    method: 'GET',
    path: '/api/discountcode.php',
    query: DiscountQuery,
    response: DiscountResponse,
  },
  order: { method: 'POST', path: '/api/orders.php', body: OrderRequest, response: OrderResponse },
  repeatOrder: {
    method: 'POST',
    path: '/api/orders.php',
    fixedQuery: { repeat: '1' },
    body: RepeatOrderRequest,
    response: OrderResponse,
  },
  transaction: {
    method: 'GET',
    path: '/api/transactions.php',
    query: TransactionQuery,
    response: Transaction,
  },
  creditHistory: {
    method: 'GET',
    path: '/api/credit_history.php',
    response: CreditHistoryResponse,
  },
  purchases: { method: 'GET', path: '/api/withdrawals.php', response: PurchasesResponse },
  withdraw: {
    method: 'POST',
    path: '/api/withdrawals.php',
    body: WithdrawRequest,
    response: WithdrawResponse,
  },
  withdrawalLink: {
    method: 'POST',
    path: '/api/withdrawal_link.php',
    body: WithdrawalLinkRequest,
    response: WithdrawalLinkResponse,
  },
  withdrawalLinkPurchase: {
    method: 'GET',
    path: '/api/withdrawal_link.php',
    query: WithdrawalLinkQuery,
    response: WithdrawalLinkPurchase,
  },
  withdrawalConfirm: {
    method: 'POST',
    path: '/api/withdrawal_confirm.php',
    body: WithdrawalConfirmRequest,
    response: WithdrawResponse,
  },
  /** The provider's notice (Mollie's webhook): `id=tr_…`, form-encoded; the server fetches the payment. */
  paymentWebhook: {
    method: 'POST',
    path: '/api/payments/webhook.php',
    body: WebhookForm,
    form: true,
    response: null,
  },
  /** The built-in local provider's checkout page (HTML) and its buttons (a form post, then a redirect). */
  localCheckout: {
    method: 'GET',
    path: '/api/payments/checkout.php',
    query: LocalCheckoutQuery,
    response: null,
  },
  localCheckoutAction: {
    method: 'POST',
    path: '/api/payments/checkout.php',
    body: LocalCheckoutForm,
    form: true,
    response: null,
  },

  // Webcam provider (spec §6)
  cams: { method: 'GET', path: '/api/xcams/search.php', query: CamsQuery, response: CamsResponse },
  camRedirect: {
    method: 'GET',
    path: '/api/xcams/redirect.php',
    query: CamRedirectQuery,
    response: null,
    effects: true,
  },
  camDemo: { method: 'GET', path: '/api/xcams/demo.php', query: DemoProviderQuery, response: null },
  resellPartner: {
    method: 'GET',
    path: '/api/resellpartner.php',
    query: ResellPartnerQuery,
    response: null,
    effects: true,
  },

  // Probes of a load balancer or orchestrator: outside /api, no session, never
  // cached (api/http/health.ts, docs/several-machines.md).
  healthz: { method: 'GET', path: '/healthz', response: HealthResponse },
  readyz: { method: 'GET', path: '/readyz', response: ReadyResponse },
  /** Prometheus text, to loopback or METRICS_TOKEN only, else 404 (api/http/metrics.ts). */
  metrics: { method: 'GET', path: '/metrics', response: null },

  // The operator's console (404 to anyone but staff)
  ...operatorEndpoints,
} as const satisfies Record<string, EndpointDef>

export type Endpoints = typeof endpoints
export type EndpointName = keyof Endpoints
